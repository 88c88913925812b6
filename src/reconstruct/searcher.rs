//! The searcher: what reading one entry as one move costs, with the tables
//! and caches that make that cheap enough to ask millions of times. The
//! repair windows ([`beam`](super::beam)), their judgement
//! ([`judge`](super::judge)), earlier slips ([`slips`](super::slips)) and the
//! fit of a given game ([`fit`](super::fit)) are its other methods.

use rustc_hash::FxHashMap as HashMap;

use shakmaty::{Bitboard, CastlingSide, Chess, File, Move, MoveList, Position, Role, Square, attacks, san::San};

use super::arena::Node;
use super::book::Book;
use super::budget::Meter;
use super::game::play;
use super::prior;
use crate::cost::{MAX_FUZZY_LEN, Params};
use crate::notation::distance::{Rows, Written};
use crate::notation::forms::{Forms, fit, forms};
use crate::notation::lex::{CheckMark, Lexed};
use crate::notation::reading::{Reading, Resolution, Target, exact_move, figurine, resolve};
use crate::notation::targets::Targets;
use crate::notation::{LANGUAGES, Language};

/// What reading the entries of one sheet, under one language, as moves costs,
/// with the tables and caches that answer it: the windows, their judgement,
/// the earlier slips and the fit of a given game are its methods.
pub(crate) struct Searcher<'a> {
    pub lexed: &'a [Lexed<'a>],
    pub illegible: &'a [bool],
    /// The strict readings of every entry.
    pub strict: Vec<Vec<Reading>>,
    pub lang: &'static Language,
    pub params: &'a Params,
    pub(super) prepared: Vec<Option<Prepared>>,
    /// The nodes of the last window (kept for their room).
    pub(super) arena: Vec<Node>,
    /// Readings already weighed, by [`fit_key`].
    pub(super) fits: HashMap<u64, f32>,
    pub(super) buf: Forms,
    pub(super) no_moves: MoveList,
    /// Piece letters of the sheet's language and of English.
    pub(super) pieces: Vec<char>,
    /// The substitution rows of the characters read so far.
    pub(super) rows: Rows,
    /// How often players chose moves in the opening, for [`prior`].
    pub(super) book: Option<Book<'a>>,
    /// Set once the plausibility has put a costlier reading first.
    pub prior_chose: bool,
    /// The work done, and its bound (`None`: unbounded).
    meter: Option<&'a Meter>,
    /// The ply the sheet's numbering gives its first entry (a copy that
    /// starts late numbers its first line as played), where it numbers it.
    pub(super) first_ply: Option<u32>,
    /// The blocks of entries written twice over, once asked for (see
    /// `Searcher::repeated_blocks`).
    pub(super) repeated: Option<std::rc::Rc<[Vec<usize>]>>,
}

impl<'a> Searcher<'a> {
    pub(crate) fn new(
        lexed: &'a [Lexed<'a>],
        illegible: &'a [bool],
        strict: Vec<Vec<Reading>>,
        lang: &'static Language,
        params: &'a Params,
    ) -> Self {
        let prepared = lexed.iter().map(|_| None).collect();
        Searcher {
            lexed,
            illegible,
            strict,
            lang,
            params,
            prepared,
            arena: Vec::new(),
            fits: HashMap::default(),
            buf: Forms::default(),
            no_moves: MoveList::new(),
            rows: Rows::default(),
            pieces: lang.pieces.iter().chain(LANGUAGES[0].pieces.iter()).filter_map(|p| p[0].chars().next()).collect(),
            book: None,
            prior_chose: false,
            meter: None,
            first_ply: None,
            repeated: None,
        }
    }

    /// The same searcher, its work counted on `meter`.
    pub(crate) fn with_meter(mut self, meter: &'a Meter) -> Self {
        self.meter = Some(meter);
        self
    }

    /// Counts `n` units of work.
    #[inline]
    pub(super) fn spend(&self, n: usize) {
        if let Some(m) = self.meter {
            m.spend(n);
        }
    }

    /// Spends the whole budget: the search stops.
    pub(super) fn exhaust(&self) {
        if let Some(m) = self.meter {
            m.exhaust();
        }
    }

    /// Whether the budget of work is spent: the search stops.
    #[inline]
    pub(super) fn out(&self) -> bool {
        self.meter.is_some_and(Meter::out)
    }

    /// The same searcher, with `book` for the plausibility of readings in doubt.
    pub(crate) fn with_book(mut self, book: Option<Book<'a>>) -> Self {
        self.book = book.filter(|_| self.params.limits.prior_reach > 0.0);
        self
    }

    /// How likely the book finds `mv` in `pos` (a natural log; 0 where it
    /// knows nothing of `pos`, or without a book).
    pub(crate) fn move_prior(&self, pos: &Chess, mv: &Move) -> f32 {
        self.book.and_then(|b| b.log_prior(pos, mv)).unwrap_or(0.0)
    }

    /// The plausibility's preference of `lines` (moves from `start`) costing
    /// `costs` (see [`prior`]): the index of the one whose plausibility less
    /// its cost is highest, of those within `prior_reach` of the cheapest;
    /// `None` when `prior_reach` is 0.
    pub(crate) fn prior_choice(&mut self, start: &Chess, lines: &[&[Move]], costs: &[f32]) -> Option<usize> {
        if self.params.limits.prior_reach <= 0.0 {
            return None;
        }
        let least = costs.iter().copied().fold(f32::INFINITY, f32::min);
        let scores = prior::line_scores(self.book.as_ref(), start, lines);
        tracing::trace!(?scores, ?costs, "readings weighed by their plausibility");
        let choice = (0..lines.len())
            .filter(|&i| costs[i] <= least + self.params.limits.prior_reach)
            .max_by(|&a, &b| (scores[a] - costs[a]).total_cmp(&(scores[b] - costs[b])).then(b.cmp(&a)));
        if choice.is_some_and(|i| costs[i] > least) {
            self.prior_chose = true;
        }
        choice
    }

    /// The exact reading of entry `i` in `pos`, if it names exactly one move.
    pub(crate) fn exact(&self, pos: &Chess, i: usize) -> Option<Move> {
        if self.illegible[i] {
            return None;
        }
        exact_move(pos, &self.strict[i]).filter(|m| mark_cost(self.params, pos, self.lexed[i].check, m) == 0.0)
    }

    /// The move entry `i` names in `pos`, its check mark aside (`Da1` for
    /// Qa1+), if it names exactly one.
    pub(crate) fn names(&self, pos: &Chess, i: usize) -> Option<Move> {
        if self.illegible[i] {
            return None;
        }
        exact_move(pos, &self.strict[i])
    }

    /// Whether legible entry `i` names no legal move of `pos` (a slip such
    /// as `Rd8` where no rook goes there): it says nothing against a move
    /// another copy names.
    pub(crate) fn names_none(&self, pos: &Chess, i: usize) -> bool {
        !self.illegible[i] && resolve(pos, &self.strict[i]) == Resolution::None
    }

    /// Whether `mv` is among the legal moves of `pos` entry `i` reads as
    /// most cheaply: the move a slip is closest to.
    pub(crate) fn closest(&mut self, pos: &Chess, i: usize, mv: &Move) -> bool {
        let c = self.reading_cost(pos, i, mv);
        c.is_finite() && pos.legal_moves().iter().all(|o| o == mv || self.reading_cost(pos, i, o) >= c)
    }

    /// What reading entry `entry` as `mv` in `pos` costs (infinite past `max_fit`).
    pub(crate) fn reading_cost(&mut self, pos: &Chess, entry: usize, mv: &Move) -> f32 {
        self.spend(1);
        if self.illegible[entry] {
            return self.params.costs.illegible;
        }
        if self.exact(pos, entry) == Some(*mv) {
            return 0.0;
        }
        let legal = pos.legal_moves();
        let cost = self.fit(entry, mv, &legal, pos, f32::INFINITY);
        if cost <= self.params.limits.max_fit { cost } else { f32::INFINITY }
    }

    /// Entry `i` prepared for fuzzy reading.
    pub(super) fn prepared(&mut self, i: usize) -> &Prepared {
        let params = self.params;
        let (lexed, strict, lang, pieces, rows) =
            (&self.lexed[i], &self.strict[i], self.lang, &self.pieces, &mut self.rows);
        self.prepared[i].get_or_insert_with(|| Prepared::new(lexed, strict, lang, params, pieces, rows))
    }

    /// How far entry `i` is from move `m`: 0 when it reads exactly, else the
    /// weighted distance to the nearest form of the move.
    pub(super) fn fit(&mut self, i: usize, m: &Move, moves: &MoveList, pos: &Chess, bound: f32) -> f32 {
        let c = self.fit_letters(i, m, moves, pos, bound);
        if c.is_finite() { c + mark_cost(self.params, pos, self.lexed[i].check, m) } else { c }
    }

    /// How far entry `i`'s letters are from move `m`, its check sign aside.
    pub(super) fn fit_letters(&mut self, i: usize, m: &Move, moves: &MoveList, pos: &Chess, bound: f32) -> f32 {
        let params = self.params;
        self.prepared(i);
        let entry = self.prepared[i].as_ref().expect("prepared above");
        // A strict reading (exact, or loose: a lowercase piece letter, a pawn
        // letter, the promotion piece left out) costs what the reading costs.
        let castle = m.is_castle();
        if (castle || entry.quick.strict_to.contains(m.to()))
            && let Some(c) =
                self.strict[i].iter().filter(|r| r.matches(pos.turn(), m)).map(|r| f32::from(r.cost)).reduce(f32::min)
        {
            // "Cf3" with two knights able (FIDE E9): the entry does not say
            // which; each costs a little, so that the choice is a repair the
            // rest of the game must settle.
            let alike = moves
                .iter()
                .filter(|o| self.strict[i].iter().any(|r| f32::from(r.cost) == c && r.matches(pos.turn(), o)))
                .count();
            return if alike > 1 { c + params.costs.edits.light } else { c };
        }
        // A long run of characters is no slip of one move: reading it fuzzily
        // against every legal move would only cost time.
        let Some(written) = &entry.written else { return f32::INFINITY };
        // Every form of a move but castling names its destination square (a
        // pawn capture cut short names at least its file).
        if !castle {
            let to = m.to();
            let full = entry.quick.to_bound[usize::from(to)];
            let short = if m.is_capture() && m.role() == shakmaty::Role::Pawn {
                entry.quick.file_bound[usize::from(to.file())]
            } else {
                f32::INFINITY
            };
            if full.min(short) > bound.min(params.limits.max_fit) {
                return f32::INFINITY;
            }
        }
        // Only a piece that shares its destination with another of its kind
        // needs the (costly) disambiguation to be worked out.
        let san = San::disambiguate(*m, if may_share(pos, m) { moves } else { &self.no_moves });
        // The forms of a move are made of its SAN and its origin only: moves
        // that capture different pieces, or an en passant capture and a
        // plain one, share them.
        let key = fit_key(i, m.from(), &san);
        if let Some(&c) = self.fits.get(&key) {
            return c;
        }
        forms(m, &san, self.lang, &LANGUAGES[0], &mut self.buf);
        let c = fit(written, &self.buf, &params.costs.edits, params.limits.max_fit);
        self.fits.insert(key, c);
        c
    }
}

/// What the search needs of one entry, prepared the first time it is read
/// fuzzily.
pub(super) struct Prepared {
    pub(super) quick: Quick,
    /// The entry prepared for the edit distance; `None` when it is too long to
    /// be read fuzzily.
    pub(super) written: Option<Written>,
}

/// Tables that rule out most moves for an entry with a lookup or two.
#[derive(Clone, Copy)]
pub(super) struct Quick {
    /// The destinations of the strict readings: only castling or a move to one
    /// of them can read strictly.
    pub(super) strict_to: Bitboard,
    /// Per destination square: a lower bound of reading the entry as a move
    /// there (every form but castling and a short pawn capture names it).
    pub(super) to_bound: [f32; 64],
    /// Per file: a lower bound of reading the entry as a pawn capture cut short to it.
    pub(super) file_bound: [f32; 8],
    /// Per square: the lesser of its bound and its file's.
    pub(super) floor: [f32; 64],
}

impl Quick {
    /// The squares a move must go to to be read within `limit`, castling
    /// aside: any move to the first, a pawn capture (cut short) to the second.
    pub(super) fn admissible(&self, limit: f32) -> (Bitboard, Bitboard) {
        let mut full = self.strict_to;
        let mut short = Bitboard::EMPTY;
        for sq in Square::ALL {
            if self.to_bound[usize::from(sq)] <= limit {
                full.add(sq);
            } else if self.file_bound[usize::from(sq.file())] <= limit {
                short.add(sq);
            }
        }
        (full, short)
    }

    /// Rules nothing out.
    pub(super) const NONE: Quick =
        Quick { strict_to: Bitboard::FULL, to_bound: [0.0; 64], file_bound: [0.0; 8], floor: [0.0; 64] };

    /// Whether reading the entry as `m` surely costs more than `limit`:
    /// neither castling nor a strict reading, and over the square's bound.
    #[inline]
    pub(super) fn rules_out(&self, m: &Move, limit: f32) -> bool {
        let to = m.to();
        if self.strict_to.contains(to) {
            return false;
        }
        // Over the bound whether or not it is a pawn capture: most moves.
        if self.floor[usize::from(to)] > limit {
            return !m.is_castle();
        }
        if m.is_castle() {
            return false;
        }
        let full = self.to_bound[usize::from(to)];
        let short = if m.is_capture() && m.role() == shakmaty::Role::Pawn {
            self.file_bound[usize::from(to.file())]
        } else {
            f32::INFINITY
        };
        full.min(short) > limit
    }
}

impl Prepared {
    pub(super) fn new(
        lexed: &Lexed<'_>,
        strict: &[Reading],
        lang: &'static Language,
        params: &Params,
        pieces: &[char],
        rows: &mut Rows,
    ) -> Self {
        let mut strict_to = Bitboard::EMPTY;
        for r in strict {
            match r.target {
                Target::Move { to, .. } | Target::FromTo { to, .. } => strict_to.add(to),
                // A capture of a piece names no square: any may be it.
                Target::Takes { .. } => strict_to = Bitboard::FULL,
                Target::Castle(_) => {}
            }
        }
        let written = (lexed.core.len() <= MAX_FUZZY_LEN).then(|| {
            Written::with_rows(
                &normalize(&lexed.core, lang),
                &params.costs.edits,
                pieces,
                (params.costs.edits.piece, params.costs.edits.dropped_piece),
                rows,
            )
        });
        let mut to_bound = [f32::INFINITY; 64];
        let mut file_bound = [f32::INFINITY; 8];
        if let Some(w) = &written {
            for sq in Square::ALL {
                // A piece move may drop the file (`B5`): see `forms`.
                let dropped = w.lower_bound(&[sq.rank().char()]) + crate::cost::DROPPED_FILE;
                to_bound[usize::from(sq)] = w.lower_bound(&[sq.file().char(), sq.rank().char()]).min(dropped);
            }
            for f in File::ALL {
                file_bound[usize::from(f)] = w.lower_bound(&[f.char()]) + crate::cost::SHORTHAND;
            }
        }
        let floor = std::array::from_fn(|sq| to_bound[sq].min(file_bound[sq % 8]));
        Prepared { quick: Quick { strict_to, to_bound, file_bound, floor }, written }
    }
}

/// The legal moves of `pos` that go to a square of `full`, the pawn
/// captures to a square of `short`, and castling, into `out` (in no
/// particular order): the moves an entry could name within a limit (see
/// [`Quick::admissible`]). With few squares this is much cheaper than all
/// legal moves, most of which the caller would rule out.
pub(super) fn moves_to(pos: &Chess, (full, short): (Bitboard, Bitboard), out: &mut MoveList) {
    out.clear();
    if full == Bitboard::FULL {
        out.extend(pos.legal_moves());
        return;
    }
    if pos.is_check() {
        out.extend(
            pos.legal_moves().into_iter().filter(|m| {
                full.contains(m.to()) || (short.contains(m.to()) && m.role() == Role::Pawn && m.is_capture())
            }),
        );
        return;
    }
    let targets = Targets::new(pos);
    let free = !pos.us();
    for to in full & free {
        targets.add_all(to, out);
    }
    // A file named alone (`ed`) is a pawn capture: only squares one of our
    // pawns attacks and that hold a capture can be it.
    let mut reach = Bitboard::EMPTY;
    for sq in pos.our(Role::Pawn) {
        reach |= attacks::pawn_attacks(pos.turn(), sq);
    }
    let prey = pos.them() | pos.maybe_ep_square().map_or(Bitboard::EMPTY, Bitboard::from_square);
    for to in short & !full & free & reach & prey {
        targets.add(Role::Pawn, to, false, out);
    }
    for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
        targets.castling(side, out);
    }
}

/// Entry `i` read as a move from `from` with SAN `san`, in one word: hashed
/// millions of times, it must be cheap to hash.
pub(super) fn fit_key(i: usize, from: Option<Square>, san: &San) -> u64 {
    let role = |r: Option<Role>| r.map_or(0, |r| r as u64);
    let san_bits = match *san {
        San::Normal { role: r, file, rank, capture, to, promotion } => {
            1 | (r as u64) << 2
                | file.map_or(0, |f| 1 + f as u64) << 5
                | rank.map_or(0, |r| 1 + r as u64) << 9
                | u64::from(capture) << 13
                | (to as u64) << 14
                | role(promotion) << 20
        }
        San::Castle(side) => 2 | (side as u64) << 2,
        San::Put { role: r, to } => 3 | (r as u64) << 2 | (to as u64) << 14,
        San::Null => 0,
    };
    (i as u64) << 32 | from.map_or(0, |f| 1 + f as u64) << 24 | san_bits
}

/// What reading an entry with check sign `mark` as `m` in `pos` costs for
/// the sign: [`Costs::false_check`](crate::cost::Costs::false_check) where it claims a check (or mate) that
/// `m` does not give, else nothing.
pub(crate) fn mark_cost(params: &Params, pos: &Chess, mark: Option<CheckMark>, m: &Move) -> f32 {
    if mark.is_none() || params.costs.false_check == 0.0 {
        return 0.0;
    }
    let mut after = pos.clone();
    after.play_unchecked(*m);
    if after.is_check() { 0.0 } else { params.costs.false_check }
}

/// Whether another piece of the kind of `m` could also go to its destination
/// in `pos`: only then is the (costly) disambiguation worked out. Every
/// piece that has a legal move there attacks the square, so a `false` here is
/// sure; a `true` leaves it to the legal moves.
pub(super) fn may_share(pos: &Chess, m: &Move) -> bool {
    let role = m.role();
    if matches!(role, shakmaty::Role::Pawn | shakmaty::Role::King) {
        return false;
    }
    let piece = shakmaty::Piece { color: pos.turn(), role };
    (shakmaty::attacks::attacks(m.to(), piece, pos.board().occupied()) & pos.our(role)).more_than_one()
}

/// The written entry as compared with forms: figurines become the language's
/// letters, castling zeros become letters O.
pub(super) fn normalize(core: &str, lang: &Language) -> Vec<char> {
    if core.len() >= 2 && core.chars().all(|c| matches!(c, '0' | 'O' | 'o' | '-')) {
        return core.chars().map(|c| if c == '-' { '-' } else { 'O' }).collect();
    }
    let mut out = String::new();
    // A piece written in another of the language's spellings (a Latin `C` for
    // the Russian `С`) is that spelling, not a slip: the forms use the first.
    let mut core = core;
    if let Some((role, len)) = lang.piece_prefix(core)
        && lang.letter(role) != &core[..len]
    {
        out.push_str(lang.letter(role));
        core = &core[len..];
    }
    for c in core.chars() {
        // A pawn figurine is kept as it is: pawns have no letter to put there.
        match figurine(c).filter(|r| *r != Role::Pawn) {
            Some(r) => out.push_str(lang.letter(r)),
            None => out.push(c),
        }
    }
    out.chars().collect()
}

/// The SAN, without check mark, of the move at ply `p` of a line played from `start`.
pub(super) fn san_at(start: &Chess, line: &[Move], p: usize) -> San {
    let mut pos = start.clone();
    for m in &line[..p] {
        pos.play_unchecked(*m);
    }
    San::from_move(&pos, line[p])
}

/// The SAN, with check marks, of each move of a line played from `start`.
pub(crate) fn sans(start: &Chess, moves: &[Move]) -> Vec<String> {
    let mut pos = start.clone();
    moves.iter().map(|m| play(&mut pos, *m).to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::targets::random_positions;
    use shakmaty::EnPassantMode;

    #[test]
    fn moves_to_finds_the_legal_moves_to_its_squares() {
        let (mut positions, mut seen_ep, mut seen_promotion, mut seen_castle) = (0, 0, 0, 0);
        let mut out = MoveList::new();
        random_positions(|pos, legal, next| {
            for _ in 0..3 {
                // Sparse squares, as an entry names: a few of 64.
                let full = Bitboard(next() & next() & next());
                let short = Bitboard(next() & next() & next()) & !full;
                moves_to(pos, (full, short), &mut out);
                let mut got: Vec<Move> = out.to_vec();
                let mut want: Vec<Move> = legal
                    .iter()
                    .filter(|m| {
                        full.contains(m.to())
                            || m.is_castle()
                            || (short.contains(m.to()) && m.role() == Role::Pawn && m.is_capture())
                    })
                    .copied()
                    .collect();
                let key = |m: &Move| (m.from(), m.to(), m.promotion(), m.is_castle());
                got.sort_by_key(key);
                want.sort_by_key(key);
                assert_eq!(got, want, "{}", shakmaty::fen::Fen::from_position(pos, EnPassantMode::Legal));
                positions += 1;
                seen_ep += want.iter().filter(|m| m.is_en_passant()).count();
                seen_promotion += want.iter().filter(|m| m.is_promotion()).count();
                seen_castle += want.iter().filter(|m| m.is_castle()).count();
            }
        });
        assert!(positions > 10_000 && seen_ep > 0 && seen_promotion > 0 && seen_castle > 0);
    }
}
