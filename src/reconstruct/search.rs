//! Repair search: when an entry names no legal move, a beam search over legal
//! games re-reads a window of the sheet around it — from a few entries before
//! (a wrong but legal reading often shows only later) until the best reading is
//! clearly ahead — with every way the writer or typist could have erred:
//! a fuzzy reading of an entry, an entry written twice or stray (skipped), a
//! move not written (inserted), an illegible box (any legal move).

use std::collections::HashMap;

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, File, Move, MoveList, Position, Rank, san::San};

use crate::notation::distance::SheetCosts;
use crate::notation::forms::{fit, forms};
use crate::notation::lex::Lexed;
use crate::notation::reading::{Reading, Resolution, resolve};
use crate::notation::{LANGUAGES, Language};

/// Costs of the things writers do, and the search's limits. Costs are in
/// "nats of surprise": an exact reading costs 0.
#[derive(Debug, Clone, Copy)]
pub struct Params {
    pub edits: SheetCosts,
    /// Reading an entry as a move further than this is not considered.
    pub max_fit: f32,
    /// An entry that is not a move of the game (stray, or written twice).
    pub skip: f32,
    /// An entry that repeats the one before it.
    pub skip_repeat: f32,
    /// A move the writer did not write.
    pub insert: f32,
    /// An illegible box read as any legal move.
    pub illegible: f32,
    /// Entries after the game ended.
    pub after_end: f32,
    /// Entries read before the failing one that the search may re-read.
    pub back: usize,
    /// Entries read after the failing one before the window may close.
    pub ahead: usize,
    /// The window grows up to this many entries past the failure while the
    /// best reading is not clearly ahead.
    pub ahead_max: usize,
    /// Nodes kept per entry.
    pub beam: usize,
    /// Nodes costlier than the best by more than this are dropped.
    pub beam_margin: f32,
    /// A repair is clearly determined when the best different reading costs
    /// this much more; below it the game goes to review.
    pub review_margin: f32,
    /// A window whose best reading costs more than this is not repaired: the
    /// game stops at the failing entry with `illegal-move`.
    pub hopeless: f32,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            edits: SheetCosts::default(),
            max_fit: 9.0,
            skip: 7.0,
            skip_repeat: 3.0,
            insert: 6.0,
            illegible: 1.0,
            after_end: 1.0,
            back: 6,
            ahead: 4,
            ahead_max: 16,
            beam: 12,
            beam_margin: 10.0,
            review_margin: 3.0,
            hopeless: 30.0,
        }
    }
}

/// One step of a reconstruction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Step {
    /// Entry `entry` read as `mv`, at `cost` (0: exactly as written).
    Read { entry: usize, mv: Move, cost: f32 },
    /// Entry `entry` is not a move of the game.
    Skip { entry: usize, cost: f32 },
    /// A move that was not written, then entry `entry` read as `mv`.
    InsertRead { inserted: Move, entry: usize, mv: Move, cost: f32 },
}

impl Step {
    pub fn cost(&self) -> f32 {
        match self {
            Step::Read { cost, .. } | Step::Skip { cost, .. } | Step::InsertRead { cost, .. } => *cost,
        }
    }

    /// The moves this step adds to the game.
    pub fn moves(&self) -> impl Iterator<Item = Move> {
        let (a, b) = match *self {
            Step::Read { mv, .. } => (None, Some(mv)),
            Step::Skip { .. } => (None, None),
            Step::InsertRead { inserted, mv, .. } => (Some(inserted), Some(mv)),
        };
        a.into_iter().chain(b)
    }
}

/// The outcome of re-reading one window.
#[derive(Debug, Clone)]
pub struct Window {
    /// The steps of the best reading, from the window's first entry.
    pub steps: Vec<Step>,
    /// Entry the window ends before.
    pub end: usize,
    /// How much costlier the best different reading is (infinite when none survived).
    pub margin: f32,
    /// Where the best different reading departs: (index into `steps` of the
    /// first step that differs, the competing moves at that point).
    pub rivals: Option<(usize, Vec<Move>)>,
}

struct Node {
    pos: Chess,
    cost: f32,
    parent: usize,
    step: Option<Step>,
}

const ROOT: usize = usize::MAX;

/// Re-reads entries from `start` in position `pos`, where entry `failed` could
/// not be read exactly.
pub struct Searcher<'a> {
    pub lexed: &'a [Lexed],
    pub texts: &'a [&'a str],
    pub illegible: &'a [bool],
    pub strict: &'a [Vec<Reading>],
    pub lang: &'static Language,
    pub params: &'a Params,
    written: Vec<Vec<char>>,
    fits: HashMap<(usize, Move, Option<File>, Option<Rank>), f32>,
    buf: Vec<(Vec<char>, f32)>,
}

impl<'a> Searcher<'a> {
    pub fn new(
        lexed: &'a [Lexed],
        texts: &'a [&'a str],
        illegible: &'a [bool],
        strict: &'a [Vec<Reading>],
        lang: &'static Language,
        params: &'a Params,
    ) -> Self {
        let written = lexed.iter().map(|l| normalize(&l.core, lang)).collect();
        Searcher { lexed, texts, illegible, strict, lang, params, written, fits: HashMap::new(), buf: Vec::new() }
    }

    /// The exact reading of entry `i` in `pos`, if it names exactly one move.
    pub fn exact(&self, pos: &Chess, i: usize) -> Option<Move> {
        if self.illegible[i] {
            return None;
        }
        match resolve(pos, &self.strict[i]) {
            Resolution::Unique { mv, cost: 0 } => Some(mv),
            _ => None,
        }
    }

    /// Beam search from entry `start` in `pos`; entry `failed` is the one that
    /// could not be read exactly.
    pub fn window(&mut self, pos: &Chess, start: usize, failed: usize) -> Window {
        let n = self.lexed.len();
        let p = *self.params;
        let mut arena: Vec<Node> = vec![Node { pos: pos.clone(), cost: 0.0, parent: ROOT, step: None }];
        let mut beam = vec![0usize];
        let mut i = start;
        let close_at = (failed + 1 + p.ahead).min(n);
        let limit = (failed + 1 + p.ahead_max).min(n);
        loop {
            if i >= close_at {
                let (margin, _) = self.margin(&arena, &beam);
                if margin >= p.review_margin || i >= limit {
                    break;
                }
            }
            let mut next: Vec<usize> = Vec::new();
            let mut seen: HashMap<u64, usize> = HashMap::new();
            for (rank, &id) in beam.iter().enumerate() {
                let children = self.expand(&arena[id].pos, i, rank < 3);
                for (step, pos) in children {
                    let cost = arena[id].cost + step.cost();
                    let h: u64 = pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
                    match seen.get(&h) {
                        Some(&j) if arena[j].cost <= cost => continue,
                        Some(&j) => {
                            arena[j] = Node { pos, cost, parent: id, step: Some(step) };
                        }
                        None => {
                            seen.insert(h, arena.len());
                            next.push(arena.len());
                            arena.push(Node { pos, cost, parent: id, step: Some(step) });
                        }
                    }
                }
            }
            next.sort_by(|a, b| arena[*a].cost.total_cmp(&arena[*b].cost));
            let best = next.first().map_or(0.0, |&j| arena[j].cost);
            next.retain(|&j| arena[j].cost <= best + p.beam_margin);
            next.truncate(p.beam);
            beam = next;
            i += 1;
            if beam.is_empty() || i >= n {
                break;
            }
        }
        let (margin, rival) = self.margin(&arena, &beam);
        let steps = beam.first().map(|&b| path(&arena, b)).unwrap_or_default();
        let rivals = rival.map(|r| {
            let other = path(&arena, r);
            let at = steps.iter().zip(&other).position(|(a, b)| a.moves().ne(b.moves())).unwrap_or(steps.len().min(other.len()));
            let mut moves: Vec<Move> = Vec::new();
            let best = arena[beam[0]].cost;
            for &id in &beam {
                if arena[id].cost - best >= p.review_margin {
                    break;
                }
                if let Some(s) = path(&arena, id).get(at) {
                    for m in s.moves().take(1) {
                        if !moves.contains(&m) {
                            moves.push(m);
                        }
                    }
                }
            }
            (at, moves)
        });
        Window { steps, end: i, margin, rivals }
    }

    /// Cost gap between the best node and the next (which is a different game:
    /// nodes are merged by position).
    fn margin(&self, arena: &[Node], beam: &[usize]) -> (f32, Option<usize>) {
        match beam {
            [] | [_] => (f32::INFINITY, None),
            [a, b, ..] => (arena[*b].cost - arena[*a].cost, Some(*b)),
        }
    }

    /// Every way to read entry `i` in `pos`.
    fn expand(&mut self, pos: &Chess, i: usize, may_insert: bool) -> Vec<(Step, Chess)> {
        let p = *self.params;
        let mut out = Vec::new();
        let moves = pos.legal_moves();
        let repeat = i > 0 && self.lexed[i].core == self.lexed[i - 1].core;
        if moves.is_empty() {
            out.push((Step::Skip { entry: i, cost: p.after_end }, pos.clone()));
            return out;
        }
        let mut cheapest = f32::INFINITY;
        for m in &moves {
            let cost = if self.illegible[i] { p.illegible } else { self.fit(pos, i, m, &moves) };
            if cost <= p.max_fit {
                cheapest = cheapest.min(cost);
                let mut child = pos.clone();
                child.play_unchecked(*m);
                out.push((Step::Read { entry: i, mv: *m, cost }, child));
            }
        }
        out.push((Step::Skip { entry: i, cost: if repeat { p.skip_repeat } else { p.skip } }, pos.clone()));
        if may_insert && cheapest > p.edits.confusable {
            for m1 in &moves {
                let mut p1 = pos.clone();
                p1.play_unchecked(*m1);
                let moves1 = p1.legal_moves();
                for m2 in &moves1 {
                    let cost = if self.illegible[i] { p.illegible } else { self.fit(&p1, i, m2, &moves1) };
                    if cost <= p.edits.confusable {
                        let mut child = p1.clone();
                        child.play_unchecked(*m2);
                        out.push((Step::InsertRead { inserted: *m1, entry: i, mv: *m2, cost: p.insert + cost }, child));
                    }
                }
            }
        }
        out
    }

    /// How far entry `i` is from move `m`: 0 when it reads exactly, else the
    /// weighted distance to the nearest form of the move.
    fn fit(&mut self, pos: &Chess, i: usize, m: &Move, moves: &MoveList) -> f32 {
        if self.strict[i].iter().any(|r| r.cost == 0 && r.matches(m)) {
            return 0.0;
        }
        let san = San::disambiguate(*m, moves);
        let (file, rank) = match san {
            San::Normal { file, rank, .. } => (file, rank),
            _ => (None, None),
        };
        let key = (i, *m, file, rank);
        if let Some(&c) = self.fits.get(&key) {
            return c;
        }
        let _ = pos;
        forms(m, &san, self.lang, &LANGUAGES[0], &mut self.buf);
        let c = fit(&self.written[i], &self.buf, &self.params.edits);
        self.fits.insert(key, c);
        c
    }
}

/// The written entry as compared with forms: figurines become the language's
/// letters, castling zeros become letters O.
fn normalize(core: &str, lang: &Language) -> Vec<char> {
    let mut out = String::new();
    for c in core.chars() {
        let role = match c {
            '♔' | '♚' => Some(shakmaty::Role::King),
            '♕' | '♛' => Some(shakmaty::Role::Queen),
            '♖' | '♜' => Some(shakmaty::Role::Rook),
            '♗' | '♝' => Some(shakmaty::Role::Bishop),
            '♘' | '♞' => Some(shakmaty::Role::Knight),
            _ => None,
        };
        match role {
            Some(r) => out.push_str(lang.letter(r)),
            None => out.push(c),
        }
    }
    out.chars().collect()
}

fn path(arena: &[Node], mut id: usize) -> Vec<Step> {
    let mut steps = Vec::new();
    while id != ROOT {
        if let Some(s) = arena[id].step {
            steps.push(s);
        }
        id = arena[id].parent;
    }
    steps.reverse();
    steps
}
