//! The cost model of reading a sheet, in one place.
//!
//! A reading of a sheet is weighed by how surprising it makes what was
//! written, in nats (natural-log units): an entry read exactly as written costs
//! 0, a slip costs what it says about the writer (`Clf3` for `C1f3`, a
//! look-alike character, costs 2.5; an entry written twice 3; a move not
//! written 6). The search keeps the cheapest readings, and a repair is trusted
//! only when the next different reading costs a clear margin more.
//!
//! - [`Costs`]: what each slip costs (configurable under `repair: costs:`);
//! - [`Limits`]: how far the search looks and the margins of its judgement
//!   (configurable under `repair: limits:`);
//! - the constants below: the costs of readings that are shorthand rather than
//!   slips, the weights of the plausibility, and the search's fixed bounds,
//!   each with its reason.
//!
//! `config/default.yaml` lists every default of [`Params`]; a test keeps the
//! two equal. The range of each field is in [`Params::check`], refused when a
//! config is read.

use serde::{Deserialize, Serialize};

use crate::bounds::{Invalid, within};

/// The repair search's settings: the `repair:` section of the config.
///
/// ```
/// use scoresheet::Params;
/// let p = Params::default();
/// assert!(p.enabled && p.costs.never_negative());
/// assert!(p.limits.review_margin > 0.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Params {
    /// Repair sheets at all; `false` reads strictly and stops at the first
    /// entry that names no legal move.
    pub enabled: bool,
    /// What each slip costs.
    pub costs: Costs,
    /// How far the search looks, and the margins of its judgement.
    pub limits: Limits,
}

/// What each kind of slip costs, in nats (an exact reading costs 0).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Costs {
    /// An entry that is not a move of the game (stray, or written twice).
    pub skip: f32,
    /// An entry that repeats the one before it: a common slip of the pen, so
    /// cheaper than a stray entry.
    pub skip_repeat: f32,
    /// A move the writer did not write.
    pub insert: f32,
    /// An illegible box read as any legal move.
    pub illegible: f32,
    /// Each entry written after the game ended (mate or stalemate).
    pub after_end: f32,
    /// A check or mate sign written for a move that gives no check. Typed
    /// sheets hardly ever mark a check that is not one (none of the dev
    /// sheets' 1,042 marks), so the sign is evidence of which move was meant
    /// (`Tc1+` for Re1+, c read for e). 0 leaves the signs out of the reading.
    pub false_check: f32,
    /// Two moves of one side written in each other's place (`12. Be2 ...
    /// 13. Nf3` for Nf3 then Be2), where the other copy says the order.
    pub swap: f32,
    /// The edits of a fuzzy reading of one entry.
    pub edits: Edits,
}

/// What each edit of one written entry costs, when it is read fuzzily as a
/// move (a weighted edit distance to the nearest way of writing the move).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Edits {
    /// A character read or typed for a look-alike (`l` for `1`, `S` for `5`).
    pub confusable: f32,
    /// The right letter in the wrong case.
    pub case: f32,
    /// A square one file or one rank off.
    pub adjacent: f32,
    /// One piece letter written for another.
    pub piece: f32,
    /// A piece letter left out (`c4` for `Bc4`).
    pub dropped_piece: f32,
    /// Any other character for another.
    pub substitute: f32,
    /// `x`, `:`, `-`, `+` ... left out, or a `-` written.
    pub light: f32,
    /// A capture sign written for a move that captures nothing.
    pub spurious_capture: f32,
    /// A character typed twice.
    pub doubled: f32,
    /// A stray character.
    pub insert: f32,
    /// A character left out.
    pub delete: f32,
    /// Two neighbouring characters swapped.
    pub transpose: f32,
}

/// How far the search looks, and the margins of its judgement.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// Reading an entry as a move further than this is not considered.
    pub max_fit: f32,
    /// A move not written is considered before an entry only when reading the
    /// entry costs more than this (each insertion tries every legal move).
    pub insert_trigger: f32,
    /// How many of the best nodes at each entry try a move not written.
    pub insert_nodes: usize,
    /// Entries read before the failing one that the search may re-read.
    pub back: usize,
    /// A window whose best reading adds more than this is read again from
    /// `deep_back` entries before the failing one: a legal slip (`a4` for
    /// `d4`) or a move not written can go unnoticed for many moves, until an
    /// entry that could only follow the true move cannot be read.
    pub deep_trigger: f32,
    /// Entries before the failing one the deeper reading may re-read.
    pub deep_back: usize,
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
    /// A reading that differs from the best only where the best reads an
    /// entry as written is a doubt too when it costs less than this more.
    pub tie_margin: f32,
    /// A single slip before a repair that explains it at a cost within this
    /// of the repair's puts the repair in doubt.
    pub slip_margin: f32,
    /// A window whose best reading costs more than this is not repaired: the
    /// game stops at the failing entry with `illegal-move`.
    pub hopeless: f32,
    /// Where readings are in doubt, the plausibility of their moves (the
    /// opening book, material left to be taken) may put first one that costs
    /// up to this much more. It orders readings, never settles one: the game
    /// stays in review. 0 leaves it out.
    pub prior_reach: f32,
    /// A game whose reading costs more than this (a game cut short counts
    /// `CUT_SHORT` more) is read a second time with `second_look_margin` as
    /// the beam's margin, and the second reading kept if it costs less. Slips
    /// at the start of a game, or several close together, can send the
    /// windows down a line that only a wider beam avoids; a wider beam
    /// everywhere costs 2.4 times the time. 0 leaves the second look out.
    pub second_look: f32,
    /// The beam's margin on the second look.
    pub second_look_margin: f32,
    /// The most work the reading of one game may take, in work units (a
    /// node of the search extended, a legal move weighed as the reading of an
    /// entry, an entry read): units, not seconds, so that a sheet reads the
    /// same on any machine. Past it the search stops where it is, and the
    /// game goes to review with `search-budget`, kept as read up to there.
    pub work_per_game: u64,
    /// The most work all the games of one file may take together; a game
    /// read once it is spent is read exactly where it can be, and not searched.
    pub work_per_file: u64,
    /// A backstop in wall-clock time for one file, in milliseconds, should
    /// the work units ever undercount (0: none). Only a sheet far past the
    /// work budget reaches it: it makes no real sheet's reading depend on the
    /// machine.
    pub file_ms: u64,
}

impl Default for Params {
    fn default() -> Self {
        Params { enabled: true, costs: Costs::default(), limits: Limits::default() }
    }
}

impl Default for Costs {
    fn default() -> Self {
        Costs {
            skip: 7.0,
            skip_repeat: 3.0,
            insert: 6.0,
            illegible: 1.0,
            after_end: 1.0,
            false_check: 3.0,
            swap: 3.0,
            edits: Edits::default(),
        }
    }
}

impl Default for Edits {
    fn default() -> Self {
        Edits {
            confusable: 2.5,
            case: 1.5,
            adjacent: 3.5,
            piece: 4.5,
            dropped_piece: 3.5,
            substitute: 6.0,
            light: 1.0,
            spurious_capture: 4.0,
            doubled: 2.0,
            insert: 5.0,
            delete: 5.0,
            transpose: 3.0,
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_fit: 9.0,
            insert_trigger: -1.0,
            insert_nodes: 12,
            back: 12,
            deep_trigger: 12.0,
            deep_back: 60,
            ahead: 3,
            ahead_max: 30,
            beam: 300,
            beam_margin: 8.0,
            review_margin: 3.0,
            tie_margin: 1.0,
            slip_margin: 3.0,
            hopeless: 60.0,
            prior_reach: 2.0,
            second_look: 40.0,
            second_look_margin: 12.0,
            work_per_game: WORK_PER_GAME,
            work_per_file: 2 * WORK_PER_GAME,
            file_ms: 5000,
        }
    }
}

impl Costs {
    /// Whether no step can cost less than nothing, so that the cost of a
    /// reading only grows as it goes on (what lets the search give up early).
    pub fn never_negative(&self) -> bool {
        self.each().iter().all(|(_, c)| *c >= 0.0) && self.edits.never_negative()
    }

    /// Whether every step other than an exact reading costs something, so
    /// that a reading at no cost is the sheet exactly as written.
    pub fn always_positive(&self) -> bool {
        self.each().iter().all(|(_, c)| *c > 0.0) && self.edits.each().iter().all(|(_, c)| *c > 0.0)
    }

    /// Each cost of its own, by its name in the config.
    fn each(&self) -> [(&'static str, f32); 7] {
        // Destructured: a new cost cannot be left out.
        let Costs { skip, skip_repeat, insert, illegible, after_end, false_check, swap, edits: _ } = *self;
        [
            ("skip", skip),
            ("skip_repeat", skip_repeat),
            ("insert", insert),
            ("illegible", illegible),
            ("after_end", after_end),
            ("false_check", false_check),
            ("swap", swap),
        ]
    }
}

impl Edits {
    /// Whether no edit costs less than nothing (then a sum of lower bounds is one).
    pub fn never_negative(&self) -> bool {
        self.each().iter().all(|(_, c)| *c >= 0.0)
    }

    /// Each edit's cost, by its name in the config.
    fn each(&self) -> [(&'static str, f32); 12] {
        let Edits {
            confusable,
            case,
            adjacent,
            piece,
            dropped_piece,
            substitute,
            light,
            spurious_capture,
            doubled,
            insert,
            delete,
            transpose,
        } = *self;
        [
            ("confusable", confusable),
            ("case", case),
            ("adjacent", adjacent),
            ("piece", piece),
            ("dropped_piece", dropped_piece),
            ("substitute", substitute),
            ("light", light),
            ("spurious_capture", spurious_capture),
            ("doubled", doubled),
            ("insert", insert),
            ("delete", delete),
            ("transpose", transpose),
        ]
    }
}

// The ranges of the `repair:` section, checked when a config is read. A cost
// is the surprise of one step, in nats; a threshold on a whole reading or a
// window adds steps up.

/// The most one step may cost: a slip with odds of e^-100 is none a writer
/// makes, and costlier steps are simply never chosen.
pub(crate) const MOST_STEP: f32 = 100.0;
/// The most a threshold on a window or a game may be: [`CUT_SHORT`], past which
/// a reading is never repaired anyway.
pub(crate) const MOST_TOTAL: f32 = CUT_SHORT;
/// The least `review_margin` may be. A repair is validated only when the best
/// different reading costs `review_margin` more; at 1.0 or below, two readings
/// one cheapest step apart (an `x` left out, an illegible box, a shorthand,
/// each 1.0) would count as told apart, when the sheet says nothing between
/// them. On the dev sheets, games validated but wrong by the reader's fault
/// (not an undetectable legal slip): 50 at 0, 7 at 1.0, 0 from 1.5 to the
/// default 3.0; on the generated 600: 3 at 1.0, 0 from 1.5; on the generated
/// 1,000: 10 at 1.0, 2 at 1.5 and 2.0, 1 from 2.5.
pub(crate) const REVIEW_MARGIN_FLOOR: f32 = 1.5;

impl Params {
    /// The range of each field of `repair:`; the first one outside it, named
    /// by its path in the config.
    ///
    /// Costs are never negative: a cost is the surprise of a slip, and a
    /// negative one would make the slip likelier than the entry as written.
    /// It would also take from the search what its promises rest on: the cost
    /// of a reading would no longer only grow, so no reading could be given
    /// up once beaten (the search gets slower) and doubts would no longer be
    /// weighed on the whole sheet.
    ///
    /// ```
    /// use scoresheet::Params;
    /// let mut p = Params::default();
    /// assert!(p.check().is_ok());
    /// p.limits.review_margin = -100.0;
    /// let e = p.check().unwrap_err();
    /// assert_eq!(e.field, "repair.limits.review_margin");
    /// ```
    pub fn check(&self) -> Result<(), Invalid> {
        for (name, cost) in self.costs.each() {
            within(&format!("repair.costs.{name}"), cost, 0.0, MOST_STEP)?;
        }
        for (name, cost) in self.costs.edits.each() {
            within(&format!("repair.costs.edits.{name}"), cost, 0.0, MOST_STEP)?;
        }
        self.limits.check()
    }
}

impl Limits {
    fn check(&self) -> Result<(), Invalid> {
        let l = self;
        let step = |name: &str, v: f32| within(&format!("repair.limits.{name}"), v, 0.0, MOST_STEP);
        let total = |name: &str, v: f32| within(&format!("repair.limits.{name}"), v, 0.0, MOST_TOTAL);
        let count =
            |name: &str, v: usize, min: usize, max: usize| within(&format!("repair.limits.{name}"), v, min, max);
        step("max_fit", l.max_fit)?;
        // Below 0: a move not written is tried before every entry.
        within("repair.limits.insert_trigger", l.insert_trigger, -1.0, MOST_STEP)?;
        // The sizes of the search: each bounds the work of one window; beyond
        // these a window costs seconds and finds nothing the defaults miss.
        count("insert_nodes", l.insert_nodes, 0, 1_000)?;
        count("back", l.back, 0, 200)?;
        total("deep_trigger", l.deep_trigger)?;
        count("deep_back", l.deep_back, 0, 500)?;
        count("ahead", l.ahead, 0, 100)?;
        count("ahead_max", l.ahead_max, 0, 500)?;
        count("beam", l.beam, 1, 10_000)?;
        // The beam drops readings costlier than the best by more than its
        // margin: a rival inside the review margin must still be in the beam
        // to be seen, so review_margin <= beam_margin.
        within("repair.limits.beam_margin", l.beam_margin, REVIEW_MARGIN_FLOOR, MOST_STEP)?;
        if !(REVIEW_MARGIN_FLOOR..=l.beam_margin).contains(&l.review_margin) {
            return Err(Invalid::new(
                "repair.limits.review_margin",
                l.review_margin,
                format!(
                    "{REVIEW_MARGIN_FLOOR} to beam_margin ({}); below {REVIEW_MARGIN_FLOOR} a doubtful repair \
                     would pass as sure",
                    l.beam_margin
                ),
            ));
        }
        step("tie_margin", l.tie_margin)?;
        step("slip_margin", l.slip_margin)?;
        total("hopeless", l.hopeless)?;
        step("prior_reach", l.prior_reach)?;
        total("second_look", l.second_look)?;
        step("second_look_margin", l.second_look_margin)?;
        // The budget of work: below the floor real sheets would be cut (the
        // costliest of 1,600 real and generated sheets takes 9.4 million
        // units); the wall-clock backstop must not decide a reading on a
        // loaded machine before the units do.
        let work = |name: &str, v: u64, min: u64, max: u64| within(&format!("repair.limits.{name}"), v, min, max);
        work("work_per_game", l.work_per_game, WORK_PER_GAME_FLOOR, 1_000_000_000)?;
        work("work_per_file", l.work_per_file, l.work_per_game, 10_000_000_000)?;
        work("file_ms", l.file_ms, 1_000, 600_000)
    }
}

// Readings that are shorthand or habit rather than slips: cheap, so that the
// exact reading of another move still wins, but not free, so that a sheet read
// without them is preferred.

/// A lowercase letter read as a piece (`nf3`).
pub(crate) const LOWERCASE_PIECE: u8 = 1;
/// A pawn letter before a pawn move (`Pe4`).
pub(crate) const PAWN_LETTER: u8 = 1;
/// A promotion written without its piece: a queen is assumed.
pub(crate) const PROMOTION_ASSUMED: u8 = 1;

/// A descriptive `QKt` or `KR` read as the knight or rook that stands on the
/// other side of the board: the writer may name the piece by where it started
/// (which the position cannot tell once it has crossed), so the reading is
/// made, but one on its own side wins where both fit.
pub(crate) const WING_ELSEWHERE: u8 = 1;

/// A move written with English letters on a sheet in another language: a
/// habit of players who read English books, less likely than the sheet's own.
pub(crate) const OTHER_LANGUAGE: f32 = 2.0;
/// A pawn capture cut short (`ed`, `exd`): a shorthand, not a slip.
pub(crate) const SHORTHAND: f32 = 1.0;
/// A move written in full, from its square (`Cg1-f3`, `e2-e4`): a way some
/// players write every move.
pub(crate) const OVERSPECIFIED: f32 = 0.5;
/// A needless disambiguation (`Cgf3` where only one knight goes to f3): rarer
/// than a long form, since the writer who adds the letter has seen another
/// piece that could go there. So `Thh1` beside a king on h1 reads Rhh3, where
/// the other rook reaches h3, at no less than `Rh7` with 1 taken for 7.
pub(crate) const NEEDLESS_DISAMBIGUATION: f32 = 1.0;
/// A disambiguation left out (`Rc8` where both rooks go to c8): which piece
/// moved is then told by the game, the other copy or a later move.
pub(crate) const UNDERSPECIFIED: f32 = 3.0;
/// A piece move written without its destination's file (`B5` for `Bg5`): a
/// box cut short, read only where the game or the other copy tells which.
pub(crate) const DROPPED_FILE: f32 = 3.0;

// The plausibility of a line of moves as chess (see `reconstruct::prior`), in
// natural logs: it orders readings the sheet cannot tell apart.

/// Penalty per pawn of material a move leaves to be won.
pub(crate) const PRIOR_PER_PAWN: f32 = 0.75;
/// The most a single move is penalised: sacrifices happen.
pub(crate) const PRIOR_MOST: f32 = 3.0;
/// Bonus for taking the piece that has just moved: players take back.
pub(crate) const PRIOR_RECAPTURE: f32 = 1.0;

// The search's fixed bounds.

/// The least [`Limits::work_per_game`] a config may set: above what the
/// costliest real sheet needs (9.4 million units of 1,600 measured).
pub(crate) const WORK_PER_GAME_FLOOR: u64 = 10_000_000;

/// The default [`Limits::work_per_game`]: 16 million units, a second or
/// less of this build on one core. The real sheets that take the most take
/// 9.6 million (of the dev sheets 3.8 million; 2,200 sheets, dev and
/// generated), half a second; a junk sheet of 150 illegible boxes would take
/// 4 s and 226 MB unbounded.
pub(crate) const WORK_PER_GAME: u64 = 16_000_000;
/// The most nodes one window may make (its memory: some 60 bytes each); past
/// them the budget is spent. The real sheets' largest window makes 66,000;
/// 150 illegible boxes in a row make millions.
pub(crate) const WINDOW_NODES: usize = 500_000;
/// The wall-clock backstop is looked at once per this many work units.
pub(crate) const CLOCK_EVERY: u64 = 1 << 12;
/// A run of this many entries in a row that name no move in any language
/// (not an illegible box, not descriptive notation: `K0`, `a`, `zz`) is no
/// record of moves: the reading stops at its first entry with
/// `illegal-move`, and does not search it. Outside descriptive records, the
/// longest such run on the 2,200 dev and generated sheets is 3 (`0xd4 edx4`).
pub(crate) const NAMELESS_RUN: usize = 16;

/// A game cut short (`illegal-move`) counts this much more than its steps: any
/// complete reading is preferred to it, and it always gets a second look.
pub(crate) const CUT_SHORT: f32 = 1000.0;
/// The best nodes of a window at each entry that are weighed in full: read
/// every way (the others take an entry that reads exactly as written, bar the
/// failing one) and, where every reading pays for the entry, given a move not
/// written against the best reading of the entry rather than the best before
/// it.
pub(crate) const FULL_RANKS: usize = 4;
/// The most nodes tied with the best that try a move not written: an
/// illegible box makes thirty readings alike.
pub(crate) const MAX_TIED_INSERTS: usize = 32;
/// Boxes nobody could read give every legal move the same cost: nodes within
/// this many illegible boxes' cost of the best are a tie the beam is not cut
/// inside ...
pub(crate) const TIE_WIDTH_ILLEGIBLE: f32 = 2.0;
/// ... up to this many times the beam.
pub(crate) const TIE_BEAM_FACTOR: usize = 4;
/// The most readings an `ambiguous-repair` names its alternatives from.
pub(crate) const MAX_ALTERNATIVES: usize = 8;
/// The closest readings of a window the plausibility weighs.
pub(crate) const PLAUSIBLE_CLOSEST: usize = 16;
/// Entries longer than this (in bytes) are read exactly or not at all: a long
/// run of characters is no slip of one move.
pub(crate) const MAX_FUZZY_LEN: usize = 24;
/// Rounds of weighing doubts on the whole sheet: each round that replaces the
/// reading lowers its cost, and a few suffice.
pub(crate) const SETTLE_ROUNDS: usize = 4;
/// Language inference: groups of languages read strictly besides those whose
/// letters cover the sheet best.
pub(crate) const LANGUAGES_TRIED: usize = 4;
/// Language inference: the runner-up language is read with repairs only when
/// it reads at least 1/this of the entries the first reads strictly.
pub(crate) const RUNNER_UP_SHARE: usize = 2;
/// An entry that names no move this close before the record turns
/// descriptive is reported with the descriptive entry.
pub(crate) const DESCRIPTIVE_NEAR: usize = 3;

/// Two written names are one player's when their surnames are at least this
/// alike (Jaro–Winkler, after case and accents are folded): a letter dropped
/// or swapped in a name ("Navra" for "Navara", 0.96) stays above it, another
/// surname sharing a start ("Shirov", "Short": 0.84) falls below.
pub(crate) const SAME_NAME: f64 = 0.9;

/// Two names at least this alike (Jaro–Winkler on the surnames as they
/// sound) may be one player's typed with slips past [`SAME_NAME`] (`Jdin`
/// and `Yudn` for Yudin): two sheets whose moves make them one game's
/// copies must name one player the same and the other at least so alike.
pub(crate) const NEAR_NAME: f64 = 0.7;

/// Two sheets whose headers do not make them copies of one game are its two
/// copies when each, read alone, plays the same move at this many plies at
/// least (and at `SAME_GAME_SHARE` of the shorter reading's). Different
/// games of one event never share more than 34 plies (the corpus's 5,021
/// events, every two games of each, identical games included: it holds no
/// two with the same moves between other players; `cargo run --release -p
/// scoresheet-dev --bin agreement`); two copies of one game read alone agree
/// at 40 plies or more wherever both reach ply 40 (but for a few with many
/// slips). Games repeated move for move on two boards (a prepared line, a
/// quick draw) reach any bound: what keeps them apart is their players,
/// which must be consistent (`CopyKey::may_be_one_game`).
pub const SAME_GAME_PLIES: usize = 40;
/// See [`SAME_GAME_PLIES`]: a copy stopped early agrees with the whole game
/// on all it writes but its slips.
pub(crate) const SAME_GAME_SHARE: f64 = 0.8;
/// The index of readings ([`crate::reconstruct::by_moves`]) files each run of
/// this many plies...
pub(crate) const MOVE_WINDOW: usize = 4;
/// ...from this ply on: before it, the openings many games of an event share.
pub(crate) const MOVE_WINDOWS_FROM: usize = 20;

/// The most earlier sheets that share a key of the copies' index (a round
/// and board, or two players' names alike) one sheet is compared with when
/// sheets are grouped into games. Two copies of one game share their keys
/// with a handful of sheets at most (the same two players' other games);
/// past this many, a file of thousands of games written alike would make
/// grouping cost the square of its games: those further are not looked at,
/// and a copy not found is read alone (never merged with another game).
pub(crate) const MOST_COPY_CANDIDATES: usize = 64;

/// The most stretches where two copies' readings differ that are combined
/// every way when two copies are read together (2^4 = 16 candidate games);
/// past them each stretch is taken from one copy or the other in one piece.
/// Two independent readings seldom part in more than two places.
pub(crate) const MOST_SPLICED: usize = 4;

/// The longest block of entries a copy writes twice over (a line copied
/// again) that its alignment skips as one slip; and how far back an entry
/// left out may repeat one and still say nothing against the game.
pub(crate) const MOST_REPEATED: usize = 8;

/// How many entries before an entry past the end of the game read from two
/// copies it may repeat and still be no move (a sheet writes its last move
/// twice now and then); any other legible entry there is a move the game
/// lacks, and it is not validated.
pub(crate) const MORE_ENTRIES: usize = 2;

/// The most games with another move at a doubt of either copy's reading that
/// are weighed when two copies are read together: a few doubts of up to
/// [`MAX_ALTERNATIVES`] moves each; every one costs two alignments.
pub(crate) const MOST_VARIANTS: usize = 32;

/// Two sheets that their headers or moves pair are two games when their
/// readings alone, each of at least this many plies, agree at fewer than
/// half the plies of the shorter: the same move at the same ply, or the
/// same position reached (a move dropped or added in one reading). Copies
/// of one game part where a slip makes them and meet again; two games part
/// (at the first move, or past a shared opening) and stay apart.
pub(crate) const APART_PLIES: usize = 6;

/// How many plies from where two games read from two copies part are
/// compared as chess when their costs tie: the move in doubt and the replies
/// that show whether it gave something away.
pub(crate) const PLAUSIBLE_PLIES: usize = 6;

/// The rounds of the walk from the cheapest candidate game of two copies to
/// a cheaper one a move away: each round fixes one slip neither reading
/// alone undid; two copies' readings seldom leave more than a few.
pub(crate) const CLIMB_ROUNDS: usize = 6;

/// The most games one move away from the cheapest that one round of that
/// walk weighs; each costs two alignments of the whole game.
pub(crate) const MOST_NEIGHBOURS: usize = 320;

/// The moves an entry may mean that the walk puts in a game: the cheapest
/// readings of a slip are the likely ones (a letter, a file, a rank off).
pub(crate) const ALTERNATIVES_PER_ENTRY: usize = 4;

/// The moves an entry may mean that are tried where a move put in makes a
/// later one no longer fit: the slip that goes with it is seldom one of the
/// cheapest readings (`De3` for Re3 after the rook stayed on e4), so more.
pub(crate) const MEANINGS_AT_A_BREAK: usize = 12;

/// The most places one round of that walk reads a copy on from (a dropped
/// move puts the entries after it a ply off): each reads every later entry.
pub(crate) const MOST_REREADS: usize = 12;

#[cfg(test)]
mod tests {
    use super::*;

    /// The `repair:` section of `config/default.yaml` lists every field of
    /// [`Params`], with the code's defaults.
    #[test]
    fn the_shipped_config_lists_every_repair_default() {
        let config: serde_yaml::Value = serde_yaml::from_str(crate::config::DEFAULT_YAML).unwrap();
        let listed = config.get("repair").expect("config/default.yaml has a repair: section").clone();
        let code = serde_yaml::to_value(Params::default()).unwrap();
        assert_eq!(listed, code, "config/default.yaml's repair: section differs from Params::default()");
        let parsed: Params = serde_yaml::from_value(listed).unwrap();
        assert_eq!(parsed, Params::default());
    }

    #[test]
    fn a_negative_cost_anywhere_is_seen() {
        let mut c = Costs::default();
        assert!(c.never_negative());
        c.edits.transpose = -1.0;
        assert!(!c.never_negative());
        let c = Costs { false_check: -0.5, ..Costs::default() };
        assert!(!c.never_negative());
    }
}
