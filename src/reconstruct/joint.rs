//! The search over games that weighs both copies of one game at each ply.
//!
//! Each copy's reading alone proposes a game; the games where the two part
//! (each copy's stretches, a move of one copy put in the other's game, an
//! alternative either copy was in doubt about) are the first candidates. From
//! the cheapest of them the search then walks: at every ply where a copy's
//! entry does not read the game's move exactly (a slip, an illegible box,
//! the two copies apart), each move either copy's entry there may mean is
//! put in its place, the rest of the game replayed as written, and the game
//! weighed again against both copies (the sum of each copy's cheapest
//! alignment to it, [`Searcher::align`]). The cheapest game found is the
//! reading; every other game weighed is an alternative, and the nearest one
//! says how clearly it is ahead.

use rustc_hash::FxHashMap as HashMap;
use shakmaty::san::San;
use shakmaty::{Chess, Move, Position};

use super::game::Game;
use crate::finding::Finding;
// A position's hash (side to move, castling and en passant included), which
// the copies are weighed by.
pub(crate) use super::game::key;
use super::searcher::Searcher;
use crate::cost::{
    ALTERNATIVES_PER_ENTRY, CLIMB_ROUNDS, MEANINGS_AT_A_BREAK, MOST_NEIGHBOURS, MOST_REPEATED, MOST_REREADS,
};

/// The games weighed against two copies, each copy's searcher with its
/// caches, every game's cost kept (the first weighed of equal costs wins).
pub(crate) struct Weigher<'s, 'a, 'b> {
    a: &'s mut Searcher<'a>,
    b: &'s mut Searcher<'b>,
    costs: HashMap<Vec<Move>, f32>,
    order: Vec<Vec<Move>>,
    /// The last game whose alignments were asked for, and each copy's
    /// (cost, entry per move): the walk, the doubt and the decision all ask
    /// about the cheapest game in turn.
    aligned: Option<(Vec<Move>, Aligned)>,
    /// The position the game begins in.
    start: Chess,
}

/// For each move of a game, the entry a copy's alignment reads as it.
type Paths = Vec<Option<usize>>;

/// Each copy's alignment to one game: its cost and its paths.
type Aligned = [(f32, Paths); 2];

impl<'s, 'a, 'b> Weigher<'s, 'a, 'b> {
    /// A weigher of games that begin in `start`.
    pub(crate) fn new(a: &'s mut Searcher<'a>, b: &'s mut Searcher<'b>, start: &Chess) -> Self {
        Weigher { a, b, costs: HashMap::default(), order: Vec::new(), aligned: None, start: start.clone() }
    }

    /// Each copy's cheapest alignment to `g`: its cost and the entry each
    /// move is read from.
    fn alignments(&mut self, g: &[Move]) -> Aligned {
        if let Some((h, a)) = &self.aligned
            && h == g
        {
            return a.clone();
        }
        let start = self.start.clone();
        let (a, b) = (self.a.alignment(&start, 0, g), self.b.alignment(&start, 0, g));
        let both = [(a.cost, a.entries), (b.cost, b.entries)];
        self.aligned = Some((g.to_vec(), both.clone()));
        both
    }

    /// For each copy and each move of `g`, the entry the copy's cheapest
    /// alignment reads as that move, if any.
    pub(crate) fn paths(&mut self, g: &[Move]) -> [Paths; 2] {
        self.alignments(g).map(|(_, p)| p)
    }

    /// How much more `g` costs the copy that likes it least than that copy's
    /// own reading (`alone`): past the tie margin, that copy contradicts `g`
    /// (a legible `h6` read as b6 because the other copy says b6 is one,
    /// however cheap the confusion). Only a copy that says something
    /// against `g` contradicts it: an entry that names a legal move exactly
    /// and is read as another, or a legible entry left out that is no
    /// repeat. A slip that names no legal move says nothing against the
    /// move the other copy writes, whatever the copy alone made of it; nor
    /// does an illegible box. The candidates' margins alone do not say it:
    /// the game neither copy misread may not be among them.
    pub(crate) fn contradiction(&mut self, g: &[Move], alone: &[Game; 2]) -> f32 {
        let aligned = self.alignments(g);
        let start = self.start.clone();
        let own = |game: &Game| game.moves.iter().map(|p| p.mv).collect::<Vec<_>>();
        // A copy's reading cut short by its budget is no measure of what
        // the copy says: anything it says against `g` contradicts it.
        let spent = |game: &Game| game.findings.iter().any(|f| matches!(f, Finding::SearchBudget { .. }));
        let owns = [0, 1].map(|c| {
            if spent(&alone[c]) {
                f32::NEG_INFINITY
            } else if c == 0 {
                self.a.align(&start, 0, &own(&alone[0]))
            } else {
                self.b.align(&start, 0, &own(&alone[1]))
            }
        });
        let mut worst = 0.0f32;
        for (c, (cost, paths)) in aligned.iter().enumerate() {
            if self.overruled_in(c, g, paths) || self.left_out(c, paths) {
                worst = worst.max(cost - owns[c]);
            }
        }
        worst
    }

    /// Whether an entry of copy `c` read as a move of `g` (`paths`) names a
    /// legal move exactly, its check mark aside, and another one.
    fn overruled_in(&self, c: usize, g: &[Move], paths: &Paths) -> bool {
        let none: Paths = Vec::new();
        !self.overruled(g, if c == 0 { [paths, &none] } else { [&none, paths] }).is_empty()
    }

    /// Whether copy `c`'s alignment (`paths`) leaves out, before the last
    /// entry it reads, a legible entry that does not repeat one of the few
    /// before it.
    fn left_out(&self, c: usize, paths: &Paths) -> bool {
        let (lexed, illegible) =
            if c == 0 { (self.a.lexed, self.a.illegible) } else { (self.b.lexed, self.b.illegible) };
        let mut read = vec![false; lexed.len()];
        paths.iter().flatten().for_each(|&e| read[e] = true);
        let last = paths.iter().flatten().max().copied().unwrap_or(0);
        (0..last).any(|e| {
            !read[e] && !illegible[e] && !(e.saturating_sub(MOST_REPEATED)..e).any(|p| lexed[p].core == lexed[e].core)
        })
    }

    /// What both copies say against game `g`: the sum of each copy's
    /// cheapest alignment to it, and a move not written for each move past
    /// where both copies' records stop (a record may stop early; a move
    /// neither wrote is not the game's).
    pub(crate) fn weigh(&mut self, g: Vec<Move>) -> f32 {
        if let Some(&c) = self.costs.get(&g) {
            return c;
        }
        // Past the budget no other game is weighed (one always is); the
        // reading then says where its budget ran out.
        if self.a.out() && !self.order.is_empty() {
            return f32::INFINITY;
        }
        let start = self.start.clone();
        let (a, b) = (self.a.alignment(&start, 0, &g), self.b.alignment(&start, 0, &g));
        let unwritten = g.len() - a.entries.len().max(b.entries.len()).min(g.len());
        let c = a.cost + b.cost + unwritten as f32 * self.a.params.costs.insert;
        self.costs.insert(g.clone(), c);
        self.order.push(g);
        c
    }

    /// Where an entry of either copy (`paths`: the entry each copy reads as
    /// each move of `g`) names a legal move exactly, its check mark aside,
    /// and is read as another move of `g`: the ply and the move it names.
    fn overruled(&self, g: &[Move], paths: [&Paths; 2]) -> Vec<(usize, Move)> {
        let mut pos = self.start.clone();
        let mut out = Vec::new();
        for (k, &mv) in g.iter().enumerate() {
            for (c, path) in paths.iter().enumerate() {
                let Some(e) = path.get(k).copied().flatten() else { continue };
                let named = if c == 0 { self.a.names(&pos, e) } else { self.b.names(&pos, e) };
                out.extend(named.filter(|&m| m != mv).map(|m| (k, m)));
            }
            pos.play_unchecked(mv);
        }
        out
    }

    /// The games where an entry of either copy that names a legal move
    /// exactly, and is read as another move of `g`, is read as written: the
    /// moves after it read again (see [`Weigher::with_move_read`]).
    fn overruling(&mut self, g: &[Move]) -> Vec<Vec<Move>> {
        let paths = self.paths(g);
        let sans = sans_of(&self.start, g);
        let mut out = Vec::new();
        for (k, m) in self.overruled(g, [&paths[0], &paths[1]]) {
            let n = self.with_move_read(g, (&sans, &paths), k, m);
            if !out.contains(&n) {
                out.push(n);
            }
        }
        out
    }

    /// Weighs the games that read as written each exact entry the cheapest
    /// game overrules: an arbiter takes a legal entry as written unless the
    /// rest of the game refutes it, so that game must have been weighed.
    pub(crate) fn weigh_overruling(&mut self) {
        let Some((_, best)) = self.best() else { return };
        for n in self.overruling(&best) {
            self.weigh(n);
        }
    }

    /// Whether an entry of either copy that names a legal move exactly is
    /// read as another move of `g`, and the game that reads it as written
    /// was never weighed (the budget ran out first): nothing then says the
    /// copy is wrong there.
    pub(crate) fn overruled_unweighed(&mut self, g: &[Move]) -> bool {
        self.overruling(g).iter().any(|n| !self.costs.contains_key(n))
    }

    /// Every game weighed, cheapest first (of equal costs, the first weighed).
    pub(crate) fn ranked(&self) -> Vec<(f32, Vec<Move>)> {
        let mut out: Vec<(f32, Vec<Move>)> = self.order.iter().map(|g| (self.costs[g], g.clone())).collect();
        out.sort_by(|x, y| x.0.total_cmp(&y.0));
        out
    }

    /// For each copy and each move of `g`, whether the entry the copy's
    /// alignment to `g` reads as that move names it exactly: a doubt of the
    /// other copy there is settled by this one.
    pub(crate) fn confirmed(&mut self, g: &[Move]) -> [Vec<bool>; 2] {
        let paths = self.paths(g);
        let mut out = [vec![false; g.len()], vec![false; g.len()]];
        let mut pos = self.start.clone();
        for (k, &mv) in g.iter().enumerate() {
            for c in 0..2 {
                let Some(e) = paths[c].get(k).copied().flatten() else { continue };
                out[c][k] = if c == 0 { self.a.exact(&pos, e) } else { self.b.exact(&pos, e) } == Some(mv);
            }
            pos.play_unchecked(mv);
        }
        out
    }

    /// For each copy and each move of `g`, whether the copy's alignment to
    /// `g` reads that move from a legible entry: a slip of it, or it; not a
    /// box left empty or illegible, nor a move the copy skipped.
    pub(crate) fn written(&mut self, g: &[Move]) -> [Vec<bool>; 2] {
        let paths = self.paths(g);
        let illegible = [&self.a.illegible, &self.b.illegible];
        [0, 1].map(|c| {
            (0..g.len()).map(|k| paths[c].get(k).copied().flatten().is_some_and(|e| !illegible[c][e])).collect()
        })
    }

    /// Where the cheapest game is in doubt: the first ply at which a game
    /// within `reach` of its cost plays another move (or stops, or goes
    /// on), each copy's entry there, the move that entry names exactly, and
    /// the moves the near games play there.
    pub(crate) fn doubt(&mut self, ranked: &[(f32, Vec<Move>)], reach: f32) -> Option<Doubt> {
        let (least, best) = ranked.first()?;
        let near = ranked[1..].iter().take_while(|(c, _)| *c < least + reach);
        let parts = |g: &Vec<Move>| parting(g, best).unwrap_or(g.len());
        let ply = near.clone().map(|(_, g)| parts(g)).min()?;
        let mut pos = self.start.clone();
        best.iter().take(ply).for_each(|&m| pos.play_unchecked(m));
        let mut alternatives: Vec<Move> = Vec::new();
        for (_, g) in near.filter(|(_, g)| parts(g) == ply) {
            if let Some(&m) = g.get(ply).filter(|m| !alternatives.contains(m) && best.get(ply) != Some(m)) {
                alternatives.push(m);
            }
        }
        let entries = self.paths(best).map(|p| p.get(ply).copied().flatten());
        let names = [0, 1].map(|c| {
            let e = entries[c]?;
            let s: (&[bool], Option<Move>) = if c == 0 {
                (self.a.illegible, self.a.exact(&pos, e))
            } else {
                (self.b.illegible, self.b.exact(&pos, e))
            };
            if s.0[e] { None } else { s.1 }
        });
        let legible = [0, 1]
            .map(|c| entries[c].is_some_and(|e| if c == 0 { !self.a.illegible[e] } else { !self.b.illegible[e] }));
        Some(Doubt {
            ply,
            entries,
            names,
            legible,
            margin: ranked.get(1).map_or(f32::INFINITY, |r| r.0 - least),
            alternatives,
        })
    }

    /// Whether every game within `reach` of the cheapest parts from it at a
    /// move one copy names (its check mark aside) where the other copy has
    /// no legible entry, or a slip closest to that move: the copies are
    /// consistent with one reading, and the nearer games only fill the
    /// other copy's gap with another move.
    pub(crate) fn one_copy_names(&mut self, ranked: &[(f32, Vec<Move>)], reach: f32) -> bool {
        let Some((least, best)) = ranked.first() else { return false };
        let paths = self.paths(best);
        let near = ranked[1..].iter().take_while(|(c, _)| *c < least + reach);
        let mut plies: Vec<usize> = Vec::new();
        for (_, g) in near {
            match g.iter().zip(best).position(|(x, y)| x != y) {
                Some(k) if !plies.contains(&k) => plies.push(k),
                Some(_) => {}
                // One game stops where the other goes on (or is the same):
                // no entry names that.
                None => return false,
            }
        }
        plies.iter().all(|&k| {
            let mut pos = self.start.clone();
            best[..k].iter().for_each(|&m| pos.play_unchecked(m));
            let entry = |c: usize| paths[c].get(k).copied().flatten();
            (0..2).any(|c| {
                let named = entry(c).and_then(|e| if c == 0 { self.a.names(&pos, e) } else { self.b.names(&pos, e) });
                named == Some(best[k]) && self.says_nothing_against(1 - c, &pos, entry(1 - c), &best[k])
            })
        })
    }

    /// Whether copy `c`'s entry `e` (at `pos`) says nothing against `mv`: a
    /// box left blank or illegible, or a slip that names no legal move and
    /// is closest to `mv` (`Rd8` where no rook goes, for the other copy's
    /// `Rd1`). A slip closer to another legal move says that move: the other
    /// copy's entry may be the slip (`Ta6` for Td6 beside a king's `Rd6`).
    fn says_nothing_against(&mut self, c: usize, pos: &Chess, e: Option<usize>, mv: &Move) -> bool {
        let Some(e) = e else { return true };
        if c == 0 {
            self.a.illegible[e] || (self.a.names_none(pos, e) && self.a.closest(pos, e, mv))
        } else {
            self.b.illegible[e] || (self.b.names_none(pos, e) && self.b.closest(pos, e, mv))
        }
    }

    /// The cheapest game weighed so far.
    fn best(&self) -> Option<(f32, Vec<Move>)> {
        let mut best: Option<(f32, &Vec<Move>)> = None;
        for g in &self.order {
            let c = self.costs[g];
            if best.is_none_or(|(b, _)| c < b) {
                best = Some((c, g));
            }
        }
        best.map(|(c, g)| (c, g.clone()))
    }

    /// Walks from the cheapest game: each round weighs every game one move
    /// away from it at the plies in doubt ([`Weigher::neighbours`]) and goes
    /// to the cheapest, while one is cheaper.
    pub(crate) fn climb(&mut self, alone: &[Game; 2]) {
        for _ in 0..CLIMB_ROUNDS {
            if self.a.out() {
                return;
            }
            let Some((cost, best)) = self.best() else { return };
            let mut cheapest = cost;
            let ns = self.neighbours(&best, alone);
            for g in ns {
                cheapest = cheapest.min(self.weigh(g));
            }
            if cheapest >= cost {
                return;
            }
        }
    }

    /// The games one move away from `g`: at each ply where the entry either
    /// copy's cheapest alignment to `g` reads as its move does not read it
    /// exactly, each move that entry may mean, and the move of either copy's
    /// own reading in that position; the rest of `g` replayed as written
    /// (see [`with_move_at`]); at most [`MOST_NEIGHBOURS`].
    fn neighbours(&mut self, g: &[Move], alone: &[Game; 2]) -> Vec<Vec<Move>> {
        let places = [Place::of(&alone[0]), Place::of(&alone[1])];
        let paths = self.paths(g);
        let sans = sans_of(&self.start, g);
        let mut pos = self.start.clone();
        let mut out = Vec::new();
        let mut rereads = Vec::new();
        let unread = paths.each_ref().map(|p| Self::unread_beside(p));
        for (k, &mv) in g.iter().enumerate() {
            let mut alts: Vec<Move> = Vec::new();
            for c in 0..2 {
                if let Some(own) = places[c].at(key(&pos)).filter(|&m| m != mv && pos.is_legal(m)) {
                    alts.push(own);
                }
                // A move the copy has no entry for, beside entries its
                // alignment leaves out: they may say that move (the game
                // plays another there, which the entry cannot be read as).
                for &e in unread[c].get(&k).into_iter().flatten() {
                    alts.extend(self.meanings(c, &pos, e, Some(mv)));
                }
                let Some(e) = paths[c].get(k).copied().flatten() else { continue };
                let meant = self.meanings(c, &pos, e, Some(mv));
                if !meant.is_empty() && rereads.len() < MOST_REREADS {
                    rereads.push((c, k, e));
                }
                alts.extend(meant);
            }
            for alt in alts {
                if alt != mv && out.len() < MOST_NEIGHBOURS {
                    let n = self.with_move_read(g, (&sans, &paths), k, alt);
                    if !out.contains(&n) {
                        out.push(n);
                    }
                }
            }
            pos.play_unchecked(mv);
        }
        // An entry the alignment leaves out says a move the game may lack
        // (a move the copy's own reading dropped): read on from it.
        for (c, path) in paths.iter().enumerate() {
            let mut next = 0;
            for (k, e) in path.iter().enumerate().filter_map(|(k, e)| e.map(|e| (k, e))) {
                if next < e && rereads.len() < MOST_REREADS {
                    rereads.push((c, k, next));
                }
                next = e + 1;
            }
        }
        // From where an entry was misread, that copy read on (one dropped a
        // move and its entries are a ply off after it); and where a copy's
        // entries go on past the game (the other stopped early).
        out.extend(self.read_past(g, &paths, &places).into_iter().filter(|n| n.len() > g.len()));
        for (c, k, e) in rereads {
            let n = self.read_on(c, &g[..k], e, &places[1 - c]);
            if n.len() > k && !out.contains(&n) {
                out.push(n);
            }
        }
        out
    }

    /// For each move of the game a copy's alignment (`path`) gives no entry,
    /// the entries it leaves out between the entries read before and after
    /// that move (at most two): what the copy wrote there, unread.
    fn unread_beside(path: &[Option<usize>]) -> HashMap<usize, Vec<usize>> {
        let mut out = HashMap::default();
        let (mut next, mut unwritten) = (0, Vec::new());
        for (k, e) in path.iter().enumerate() {
            match *e {
                None => unwritten.push(k),
                Some(e) => {
                    for &p in &unwritten {
                        out.insert(p, (next..e).take(2).collect::<Vec<usize>>());
                    }
                    unwritten.clear();
                    next = e + 1;
                }
            }
        }
        out
    }

    /// Game `g` read on with each copy's entries its alignment to `g`
    /// (`paths`) leaves after the last it reads: the other copy's record
    /// stopped early, this one goes on.
    fn read_past(&mut self, g: &[Move], paths: &[Vec<Option<usize>>; 2], places: &[Place; 2]) -> Vec<Vec<Move>> {
        let mut out = Vec::new();
        for c in 0..2 {
            let next = paths[c].iter().flatten().max().map_or(0, |&e| e + 1);
            if next < self.entries(c) {
                out.push(self.read_on(c, g, next, &places[1 - c]));
            }
        }
        out
    }

    /// Each copy's own reading read on with the other copy's entries past
    /// it, weighed: the game of a copy that stopped early, and its end.
    pub(crate) fn weigh_read_on(&mut self, alone: &[Game; 2]) {
        let places = [Place::of(&alone[0]), Place::of(&alone[1])];
        for own in alone {
            let g: Vec<Move> = own.moves.iter().map(|p| p.mv).collect();
            let paths = self.paths(&g);
            for n in self.read_past(&g, &paths, &places) {
                if n.len() > g.len() {
                    self.weigh(n);
                }
            }
        }
    }

    /// Game `g` with `mv` at ply `k`, the moves after it read again in the
    /// positions they now stand in ([`Weigher::read_again`]). Where that stops
    /// short (a later move no longer fits: a rook left on e4 blocks the pawn
    /// that went there), the slip that goes with the first is looked for one
    /// or two plies before: each move an entry there may mean, the rest read
    /// again from it; the one that goes furthest is the game.
    fn with_move_read(
        &mut self,
        g: &[Move],
        read: (&[San], &[Vec<Option<usize>>; 2]),
        k: usize,
        mv: Move,
    ) -> Vec<Move> {
        let mut prefix = g[..k].to_vec();
        prefix.push(mv);
        let first = self.read_again(prefix, g, read, k + 1);
        if first.len() >= g.len() || first.len() <= k + 1 {
            return first;
        }
        let mut best = first.clone();
        let stop = first.len();
        for t in (k + 1..stop).rev().take(2) {
            let mut pos = self.start.clone();
            first[..t].iter().for_each(|&m| pos.play_unchecked(m));
            let mut meant = Vec::new();
            for c in 0..2 {
                if let Some(e) = read.1[c].get(t).copied().flatten() {
                    meant.extend(self.meanings_up_to(c, &pos, e, None, MEANINGS_AT_A_BREAK));
                }
            }
            for m in meant.into_iter().filter(|&m| m != first[t]) {
                let mut p = first[..t].to_vec();
                p.push(m);
                let n = self.read_again(p, g, read, t + 1);
                if n.len() > best.len() {
                    best = n;
                }
            }
        }
        best
    }

    /// `prefix` with `g`'s moves from ply `from` on read again in the
    /// positions they now stand in: each as its SAN (`sans`) still reads
    /// where an entry of either copy (`paths`, the alignments to `g`) names
    /// that move, else as such an entry names a legal move exactly, else as
    /// its SAN reads (see [`with_move_at`]), up to the first that is none. A
    /// rook that went to f2 rather than e2 is still the rook a later `Rf7`
    /// moves, and the entries, not the old reading, say which rook a later
    /// `Re1` is.
    fn read_again(
        &mut self,
        prefix: Vec<Move>,
        g: &[Move],
        (sans, paths): (&[San], &[Vec<Option<usize>>; 2]),
        from: usize,
    ) -> Vec<Move> {
        let mut pos = self.start.clone();
        for &m in &prefix {
            if !pos.is_legal(m) {
                return Vec::new();
            }
            pos.play_unchecked(m);
        }
        let mut out = prefix;
        for (t, &m) in g.iter().enumerate().skip(from) {
            let named: Vec<Move> = (0..2)
                .filter_map(|c| {
                    let e = paths[c].get(t).copied().flatten()?;
                    if c == 0 { self.a.exact(&pos, e) } else { self.b.exact(&pos, e) }
                })
                .collect();
            let as_written = sans[t].to_move(&pos).ok().or(pos.is_legal(m).then_some(m));
            let next = match as_written {
                Some(w) if named.contains(&w) => w,
                _ => match named.first().copied().or(as_written) {
                    Some(n) => n,
                    None => break,
                },
            };
            pos.play_unchecked(next);
            out.push(next);
        }
        out
    }

    /// How many entries copy `c` has.
    fn entries(&self, c: usize) -> usize {
        if c == 0 { self.a.lexed.len() } else { self.b.lexed.len() }
    }

    /// What copy `c`'s entry `e` may mean in `pos` (see [`meanings`]).
    fn meanings(&mut self, c: usize, pos: &Chess, e: usize, read: Option<Move>) -> Vec<Move> {
        self.meanings_up_to(c, pos, e, read, ALTERNATIVES_PER_ENTRY)
    }

    /// The same, `most` of them (and those that cost as much as the last).
    fn meanings_up_to(&mut self, c: usize, pos: &Chess, e: usize, read: Option<Move>, most: usize) -> Vec<Move> {
        if c == 0 { meanings(self.a, pos, e, read, most) } else { meanings(self.b, pos, e, read, most) }
    }

    /// Game `prefix` read on with copy `c`'s entries from `first`: each
    /// entry as its cheapest meaning, an illegible one as the other copy's
    /// own reading plays there (`other`), an entry that means no move left
    /// out, as is an entry written twice in a row; it stops at the end of the
    /// game or after two entries in a row that mean nothing.
    fn read_on(&mut self, c: usize, prefix: &[Move], first: usize, other: &Place) -> Vec<Move> {
        let mut pos = self.start.clone();
        prefix.iter().for_each(|&m| pos.play_unchecked(m));
        let mut g = prefix.to_vec();
        let mut misses = 0;
        for e in first..self.entries(c) {
            if pos.is_game_over() || misses >= 2 {
                break;
            }
            let (lexed, illegible) =
                if c == 0 { (self.a.lexed, self.a.illegible) } else { (self.b.lexed, self.b.illegible) };
            if e > first && lexed[e].core == lexed[e - 1].core {
                continue;
            }
            let illegible = illegible[e];
            let m = if illegible { other.at(key(&pos)) } else { self.meanings(c, &pos, e, None).first().copied() };
            match m.filter(|&m| pos.is_legal(m)) {
                Some(m) => {
                    pos.play_unchecked(m);
                    g.push(m);
                    misses = 0;
                }
                None => misses += 1,
            }
        }
        g
    }
}

/// Where the game read from two copies is in doubt (see `Weigher::doubt`).
#[derive(Debug, Clone)]
pub(crate) struct Doubt {
    /// The ply (0-based).
    pub ply: usize,
    /// Each copy's entry read as the move there (`None`: not written).
    pub entries: [Option<usize>; 2],
    /// The move each copy's entry names exactly there, if it names one.
    pub names: [Option<Move>; 2],
    /// Whether each copy's entry there is written and legible.
    pub legible: [bool; 2],
    /// How much cheaper the game is than the next.
    pub margin: f32,
    /// The moves the games near it play there instead.
    pub alternatives: Vec<Move>,
}

/// The move a copy's own reading plays in each position it reaches.
struct Place {
    moves: HashMap<u64, Move>,
}

impl Place {
    fn of(game: &Game) -> Self {
        let mut pos = game.start.position.clone();
        let mut moves = HashMap::default();
        for p in &game.moves {
            moves.entry(key(&pos)).or_insert(p.mv);
            pos.play_unchecked(p.mv);
        }
        Place { moves }
    }

    /// The copy's move in the position `here`, where its reading reaches it.
    fn at(&self, here: u64) -> Option<Move> {
        self.moves.get(&here).copied()
    }
}

/// The moves entry `e` may mean in `pos` (none where it reads `read`
/// exactly), cheapest first: `most` of those the searcher reads it as
/// within `max_fit`, and those that cost as much as the last of them (at
/// most [`MEANINGS_AT_A_BREAK`] in all). An illegible box means any move
/// alike: none is put in for it (the other copy's entry says which).
fn meanings(s: &mut Searcher<'_>, pos: &Chess, e: usize, read: Option<Move>, most: usize) -> Vec<Move> {
    if s.illegible[e] || (read.is_some() && s.exact(pos, e) == read) {
        return Vec::new();
    }
    let mut costed: Vec<(f32, Move)> =
        pos.legal_moves().into_iter().map(|m| (s.reading_cost(pos, e, &m), m)).filter(|(c, _)| c.is_finite()).collect();
    costed.sort_by(|x, y| x.0.total_cmp(&y.0));
    // Moves that cost the same as the last one taken are taken too (up to
    // a break's count): the order among equals is no reason to drop one.
    let last = costed.get(most.saturating_sub(1)).map_or(f32::INFINITY, |c| c.0);
    let most = costed.iter().take_while(|(c, _)| *c <= last).count().min(most.max(MEANINGS_AT_A_BREAK));
    costed.into_iter().take(most).map(|(_, m)| m).collect()
}

/// The first ply (0-based) where two games play different moves, or where
/// one stops and the other goes on; `None` for the same game.
pub(crate) fn parting(a: &[Move], b: &[Move]) -> Option<usize> {
    let common = a.len().min(b.len());
    a.iter().zip(b).position(|(x, y)| x != y).or((a.len() != b.len()).then_some(common))
}

/// The SAN of each move of a game from `start`.
pub(crate) fn sans_of(start: &Chess, g: &[Move]) -> Vec<San> {
    let mut pos = start.clone();
    g.iter()
        .map(|&m| {
            let san = San::from_move(&pos, m);
            pos.play_unchecked(m);
            san
        })
        .collect()
}

/// Game `g` (from `start`) with `mv` at ply `k`, the moves after it replayed as written
/// (`sans`, the SAN of `g`'s moves): `Bxf6` after a bishop went to b2 rather
/// than a1 is still the bishop's capture. A move that no longer reads as a
/// legal one is kept where it is still legal itself; the game stops at the
/// first that is neither.
pub(crate) fn with_move_at(start: &Chess, g: &[Move], sans: &[San], k: usize, mv: Move) -> Vec<Move> {
    let mut pos = start.clone();
    let mut out = Vec::with_capacity(g.len());
    for &m in &g[..k] {
        pos.play_unchecked(m);
        out.push(m);
    }
    if !pos.is_legal(mv) {
        return out;
    }
    pos.play_unchecked(mv);
    out.push(mv);
    for (t, &m) in g.iter().enumerate().skip(k + 1) {
        let next = match sans[t].to_move(&pos) {
            Ok(n) => n,
            Err(_) if pos.is_legal(m) => m,
            Err(_) => break,
        };
        pos.play_unchecked(next);
        out.push(next);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(sans: &str) -> Vec<Move> {
        let mut pos = Chess::default();
        sans.split_whitespace()
            .map(|s| {
                let m = s.parse::<San>().unwrap().to_move(&pos).unwrap();
                pos.play_unchecked(m);
                m
            })
            .collect()
    }

    #[test]
    fn a_move_put_in_keeps_the_later_moves_as_written() {
        let g = line("b3 Nf6 Bb2 e6 Bc3 Be7 Bxf6");
        let sans = sans_of(&Chess::default(), &g);
        let at = |san: &str| {
            let mut pos = Chess::default();
            g[..4].iter().for_each(|&m| pos.play_unchecked(m));
            san.parse::<San>().unwrap().to_move(&pos).unwrap()
        };
        let written =
            |moves: &[Move]| sans_of(&Chess::default(), moves).iter().map(ToString::to_string).collect::<Vec<_>>();
        // The bishop went to d4, not c3: its capture on f6 is still the
        // bishop's, from d4.
        let d4 = with_move_at(&Chess::default(), &g, &sans, 4, at("Bd4"));
        assert_eq!(written(&d4), ["b3", "Nf6", "Bb2", "e6", "Bd4", "Be7", "Bxf6"]);
        assert_eq!(d4[6].from(), Some(shakmaty::Square::D4));
        // From a3 no bishop takes on f6: the game stops before it.
        let a3 = with_move_at(&Chess::default(), &g, &sans, 4, at("Ba3"));
        assert_eq!(written(&a3), ["b3", "Nf6", "Bb2", "e6", "Ba3", "Be7"]);
    }
}
