//! A weighted edit distance for what people write: confusable characters
//! (an `l` read for a `1`), a dropped `x`, a doubled letter, cost far less than
//! an unrelated substitution. Optimal string alignment (restricted
//! Damerau-Levenshtein); with every cost 1 it is `strsim::osa_distance`.

use crate::cost::Edits;

/// The costs of the edit operations, in "nats" of surprise: exact is 0.
pub(crate) trait EditCosts {
    fn substitute(&self, from: char, to: char) -> f32;
    /// Cost of `c` written where nothing was meant; `prev` is the character before it.
    fn insert(&self, c: char, prev: Option<char>) -> f32;
    /// Cost of leaving out `c`.
    fn delete(&self, c: char) -> f32;
    fn transpose(&self, a: char, b: char) -> f32;
}

/// Every operation costs 1: the plain OSA distance (what the tests compare with strsim).
#[cfg(test)]
pub(crate) struct Uniform;

#[cfg(test)]
impl EditCosts for Uniform {
    fn substitute(&self, a: char, b: char) -> f32 {
        if a == b { 0.0 } else { 1.0 }
    }
    fn insert(&self, _: char, _: Option<char>) -> f32 {
        1.0
    }
    fn delete(&self, _: char) -> f32 {
        1.0
    }
    fn transpose(&self, _: char, _: char) -> f32 {
        1.0
    }
}

/// Groups of characters that are read or typed for one another on scoresheets:
/// a substitution within a group costs [`Edits::confusable`](crate::cost::Edits::confusable). A character
/// may be in several groups (`b` looks like a `6` and like an `h`).
pub const CONFUSABLE: &[&str] = &[
    "1lI7i|!", "0OoDQ", "5Ss", "8B3", "6bG", "9gq", "2Zz", "ce", "hbk", "ft", "ad", "49", "uv", "nmh", "xX", "KkК",
    "CcС",
    // Capital letters as they are handwritten: a T crossed like a 7, a C closed into a G, the
    // strokes of N, H and A, a P with a leg, an L without its foot.
    "T7", "CG", "NHA", "RP", "LI", "f4",
];

/// Characters whose absence or presence says little: capture, dashes, checks.
const LIGHT: &str = "x:-=+#/() .";

// Each group is one bit of a `u32` below the light bit.
const _: () = assert!(CONFUSABLE.len() < 31, "too many confusable groups for the class bits");

/// The characters a reader or a typist takes `c` for: the others of every
/// [`CONFUSABLE`] group it is in, in the table's order, each once.
///
/// ```
/// use scoresheet::dev::look_alikes;
/// assert_eq!(look_alikes('5'), ['S', 's']);
/// assert_eq!(look_alikes('b'), ['6', 'G', 'h', 'k']);
/// assert!(look_alikes('e').contains(&'c'));
/// assert!(look_alikes('%').is_empty());
/// ```
pub fn look_alikes(c: char) -> Vec<char> {
    let mut out: Vec<char> = Vec::new();
    for x in CONFUSABLE.iter().filter(|g| g.contains(c)).flat_map(|g| g.chars()) {
        if x != c && !out.contains(&x) {
            out.push(x);
        }
    }
    out
}

/// Per ASCII character: bit g set when it is in confusable group g; bit 31 when light.
/// Built at compile time so that the inner loop of the distance is a table lookup.
static CLASSES: [u32; 128] = classes();

const LIGHT_BIT: u32 = 1 << 31;

const fn classes() -> [u32; 128] {
    let mut t = [0u32; 128];
    let mut g = 0;
    while g < CONFUSABLE.len() {
        let b = CONFUSABLE[g].as_bytes();
        let mut i = 0;
        while i < b.len() {
            if b[i] < 128 {
                t[b[i] as usize] |= 1 << g;
            }
            i += 1;
        }
        g += 1;
    }
    let l = LIGHT.as_bytes();
    let mut i = 0;
    while i < l.len() {
        t[l[i] as usize] |= LIGHT_BIT;
        i += 1;
    }
    t
}

/// The confusable groups and lightness of a character. Inlined: it is in the
/// inner loops of the distance and of preparing an entry.
#[inline]
fn class(c: char) -> u32 {
    if c.is_ascii() { CLASSES[c as usize] } else { class_beyond_ascii(c) }
}

fn class_beyond_ascii(c: char) -> u32 {
    let mut bits = 0;
    for (g, group) in CONFUSABLE.iter().enumerate() {
        if group.contains(c) {
            bits |= 1 << g;
        }
    }
    bits
}

fn is_light(c: char) -> bool {
    class(c) & LIGHT_BIT != 0
}

impl EditCosts for Edits {
    #[inline]
    fn substitute(&self, a: char, b: char) -> f32 {
        if a == b {
            return 0.0;
        }
        let (ca, cb) = (class(a), class(b));
        let same_case_folded = if a.is_ascii() && b.is_ascii() {
            a.eq_ignore_ascii_case(&b)
        } else {
            a.to_lowercase().eq(b.to_lowercase())
        };
        if same_case_folded {
            self.case
        } else if ca & cb & !LIGHT_BIT != 0 {
            self.confusable
        } else if adjacent(a, b) {
            self.adjacent
        } else if ca & cb & LIGHT_BIT != 0 {
            self.light
        } else {
            self.substitute
        }
    }
    fn insert(&self, c: char, prev: Option<char>) -> f32 {
        if matches!(c, 'x' | 'X' | ':') {
            self.spurious_capture
        } else if is_light(c) {
            self.light
        } else if prev == Some(c) {
            self.doubled
        } else {
            self.insert
        }
    }
    fn delete(&self, c: char) -> f32 {
        if is_light(c) { self.light } else { self.delete }
    }
    fn transpose(&self, _: char, _: char) -> f32 {
        self.transpose
    }
}

/// One file or one rank off: the writer's own slip of a square.
fn adjacent(a: char, b: char) -> bool {
    let both = |r: std::ops::RangeInclusive<char>| r.contains(&a) && r.contains(&b);
    (both('a'..='h') || both('1'..='8')) && (a as i32 - b as i32).abs() == 1
}

/// The cost of turning what was `written` into `meant`: each operation is
/// something the writer or typist did to `meant`. (The search compares one
/// entry with many forms through [`Written`]; this is for the tests.)
#[cfg(test)]
pub(crate) fn distance(written: &str, meant: &str, costs: &impl EditCosts) -> f32 {
    let w: Vec<char> = written.chars().collect();
    let m: Vec<char> = meant.chars().collect();
    distance_chars(&w, &m, costs)
}

/// [`distance`] on character slices.
#[cfg(test)]
pub(crate) fn distance_chars(w: &[char], m: &[char], costs: &impl EditCosts) -> f32 {
    Written::new(w, costs, &[], (f32::INFINITY, f32::INFINITY)).distance_to(m, costs, f32::INFINITY)
}

/// A written entry prepared for comparison with many candidate forms: the
/// substitution and insertion costs of its characters are looked up once.
pub(crate) struct Written {
    chars: Vec<char>,
    /// Per written character: cost of reading it as each ASCII character.
    sub: Vec<[f32; 128]>,
    /// Per written character: cost of it being written where nothing was meant.
    ins: Vec<f32>,
    /// Per ASCII character: the least it can cost for that character of the
    /// meant form to appear in the alignment (substituted from some written
    /// character, or left out). A quick lower bound before the full distance.
    least: [f32; 128],
    /// Per ASCII character: the cost of leaving it out of the meant form (a
    /// piece letter may cost less, see `dropped_piece`), looked up once.
    del: [f32; 128],
    /// Per ASCII character: the least it can cost in any alignment, as
    /// `least` but with a piece letter's own cost of being left out.
    floor: [f32; 128],
    /// Piece letters, and what leaving one out costs.
    pieces: Vec<char>,
    dropped_piece: f32,
}

/// The substitution rows of written characters, made once per character:
/// many entries of a sheet share their characters.
#[derive(Default)]
pub(crate) struct Rows {
    rows: rustc_hash::FxHashMap<char, Box<[f32; 128]>>,
}

impl Written {
    /// `pieces` are the piece letters the writer may use; one written for
    /// another costs `piece` (a writer's slip, not a misreading).
    #[cfg(test)]
    pub(crate) fn new(chars: &[char], costs: &impl EditCosts, pieces: &[char], piece_costs: (f32, f32)) -> Self {
        Self::with_rows(chars, costs, pieces, piece_costs, &mut Rows::default())
    }

    /// As `new` (for the tests), with the rows of characters seen before taken from
    /// `rows` (which must have been filled under the same costs and pieces).
    pub(crate) fn with_rows(
        chars: &[char],
        costs: &impl EditCosts,
        pieces: &[char],
        (piece, dropped_piece): (f32, f32),
        rows: &mut Rows,
    ) -> Self {
        // Piece letters among the ASCII characters, looked up once.
        let mut is_piece = [false; 128];
        for &c in pieces.iter().filter(|c| c.is_ascii()) {
            is_piece[c as usize] = true;
        }
        let sub: Vec<[f32; 128]> = chars
            .iter()
            .map(|&w| {
                **rows.rows.entry(w).or_insert_with(|| {
                    let mut row = Box::new([0f32; 128]);
                    let w_piece = pieces.contains(&w);
                    for (c, cost) in row.iter_mut().enumerate() {
                        *cost = costs.substitute(w, c as u8 as char);
                        if w_piece && is_piece[c] && w != c as u8 as char {
                            *cost = cost.min(piece);
                        }
                    }
                    row
                })
            })
            .collect();
        let ins = chars.iter().enumerate().map(|(i, &c)| costs.insert(c, i.checked_sub(1).map(|j| chars[j]))).collect();
        let mut least = [0f32; 128];
        for (c, l) in least.iter_mut().enumerate() {
            let del = costs.delete(c as u8 as char);
            *l = sub.iter().map(|row: &[f32; 128]| row[c]).fold(del, f32::min);
        }
        let mut del = [0f32; 128];
        for (c, d) in del.iter_mut().enumerate() {
            *d = costs.delete(c as u8 as char);
            if is_piece[c] {
                *d = d.min(dropped_piece);
            }
        }
        let mut floor = [0f32; 128];
        for (c, f) in floor.iter_mut().enumerate() {
            *f = least[c].min(del[c]);
        }
        Written { chars: chars.to_vec(), sub, ins, least, del, floor, pieces: pieces.to_vec(), dropped_piece }
    }

    /// A lower bound of the distance to any form that contains all of `needed`
    /// (ASCII characters, each matched once at least).
    pub(crate) fn lower_bound(&self, needed: &[char]) -> f32 {
        needed.iter().map(|&c| if c.is_ascii() { self.least[c as usize] } else { 0.0 }).sum()
    }

    /// A lower bound of [`Self::distance_to`] `meant`, when no cost is
    /// negative: each character of `meant` is substituted (its row's cost),
    /// left out (its deletion cost) or transposed (it is then written, at
    /// no substitution cost); inserted characters cost nothing here.
    pub(crate) fn form_bound(&self, meant: &[char]) -> f32 {
        meant.iter().map(|&c| if c.is_ascii() { self.floor[c as usize] } else { 0.0 }).sum()
    }

    /// The distance from this written entry to `meant`, or infinity as soon
    /// as it is sure to exceed `bound`.
    pub(crate) fn distance_to(&self, meant: &[char], costs: &impl EditCosts, bound: f32) -> f32 {
        let (w, m) = (&self.chars, meant);
        let (n, k) = (w.len(), m.len());
        let width = k + 1;
        // Three rows suffice for OSA; entries are short, so they live on the stack.
        let mut stack = [0f32; 3 * 32];
        let mut heap = Vec::new();
        let rows: &mut [f32] = if 3 * width <= stack.len() {
            &mut stack[..3 * width]
        } else {
            heap.resize(3 * width, 0.0);
            &mut heap
        };
        let mut del_stack = [0f32; 32];
        let mut del_heap = Vec::new();
        let del: &mut [f32] = if width <= del_stack.len() {
            &mut del_stack[..width]
        } else {
            del_heap.resize(width, 0.0);
            &mut del_heap
        };
        for j in 1..=k {
            let mc = m[j - 1];
            del[j] = if mc.is_ascii() {
                self.del[mc as usize]
            } else {
                let d = costs.delete(mc);
                if self.pieces.contains(&mc) { d.min(self.dropped_piece) } else { d }
            };
            rows[j] = rows[j - 1] + del[j];
        }
        for i in 1..=n {
            let (cur, prev, prev2) = ((i % 3) * width, ((i + 2) % 3) * width, ((i + 1) % 3) * width);
            let ins = self.ins[i - 1];
            rows[cur] = rows[prev] + ins;
            let mut row_min = rows[cur];
            for j in 1..=k {
                let mc = m[j - 1];
                let sub = if mc.is_ascii() { self.sub[i - 1][mc as usize] } else { costs.substitute(w[i - 1], mc) };
                let mut best = rows[prev + j - 1] + sub;
                best = best.min(rows[prev + j] + ins);
                best = best.min(rows[cur + j - 1] + del[j]);
                if i > 1 && j > 1 && w[i - 1] == m[j - 2] && w[i - 2] == mc && w[i - 1] != w[i - 2] {
                    best = best.min(rows[prev2 + j - 2] + costs.transpose(w[i - 2], w[i - 1]));
                }
                rows[cur + j] = best;
                row_min = row_min.min(best);
            }
            if row_min > bound {
                return f32::INFINITY;
            }
        }
        rows[(n % 3) * width + k]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_look_alike_costs_less_than_an_unrelated_letter() {
        let c = Edits::default();
        // "Clf3" for "C1f3": an l read for a 1 costs far less than an unrelated letter.
        assert!(distance("Clf3", "C1f3", &c) < distance("Cdf3", "C1f3", &c));
        assert_eq!(distance("abcd", "acbd", &Uniform), 1.0);
    }

    proptest! {
        #[test]
        fn with_every_cost_one_it_is_strsim_osa(a in "[a-hx1-8KQRBNO=+-]{0,12}", b in "[a-hx1-8KQRBNO=+-]{0,12}") {
            prop_assert_eq!(distance(&a, &b, &Uniform) as usize, strsim::osa_distance(&a, &b));
        }

        #[test]
        fn long_strings_take_the_same_path(a in "[a-h1-8]{25,40}", b in "[a-h1-8]{25,40}") {
            prop_assert_eq!(distance(&a, &b, &Uniform) as usize, strsim::osa_distance(&a, &b));
        }
    }

    #[test]
    fn look_alikes_are_what_the_distance_takes_as_confusable() {
        let costs = Edits::default();
        for c in CONFUSABLE.iter().flat_map(|g| g.chars()) {
            for x in look_alikes(c) {
                let folded = c.to_lowercase().eq(x.to_lowercase());
                let expected = if folded { costs.case } else { costs.confusable };
                assert_eq!(costs.substitute(c, x), expected, "{c} for {x}");
                assert!(look_alikes(x).contains(&c), "{x} looks like {c} but not the other way");
            }
        }
    }

    #[test]
    fn confusable_pairs_cost_far_less_than_unrelated_letters() {
        let c = Edits::default();
        for (w, m) in [
            ("Clf3", "C1f3"),
            ("0-O", "O-O"),
            ("dS", "d5"),
            ("DxcB", "Dxc8"),
            ("eG", "e6"),
            ("Txq2", "Txg2"),
            ("QdZ", "Qd2"),
        ] {
            assert!(distance(w, m, &c) <= c.confusable, "{w} for {m}");
            assert!(distance(w, m, &c) * 2.0 < c.substitute, "{w} for {m}");
        }
    }

    proptest! {
        #[test]
        fn a_bound_only_ever_gives_up_above_it(a in "[a-hx1-8KQRBNOSlI=+-]{0,10}", b in "[a-hx1-8KQRBNO=+-]{0,10}", bound in 0f32..12.0) {
            let c = Edits::default();
            let w: Vec<char> = a.chars().collect();
            let m: Vec<char> = b.chars().collect();
            let exact = distance_chars(&w, &m, &c);
            let bounded = Written::new(&w, &c, &[], (c.piece, c.dropped_piece)).distance_to(&m, &c, bound);
            prop_assert!(bounded == exact || (bounded.is_infinite() && exact > bound));
        }
    }

    proptest! {
        #[test]
        fn the_form_bound_is_never_over_the_distance(a in "[a-hx1-8KQRBNOSlI=+-]{0,10}", b in "[a-hx1-8KQRBNOT=+-]{0,10}") {
            let c = Edits::default();
            let w: Vec<char> = a.chars().collect();
            let m: Vec<char> = b.chars().collect();
            let written = Written::new(&w, &c, &['K', 'Q', 'R', 'B', 'N', 'T'], (c.piece, c.dropped_piece));
            prop_assert!(written.form_bound(&m) <= written.distance_to(&m, &c, f32::INFINITY));
        }
    }

    #[test]
    fn dropped_capture_and_doubled_letters_are_cheap() {
        let c = Edits::default();
        assert_eq!(distance("fe6", "fxe6", &c), c.light);
        assert_eq!(distance("TTf1", "Tf1", &c), c.doubled);
        assert_eq!(distance("xb4", "cxb4", &c), c.delete);
        assert_eq!(distance("e44", "e4", &c), c.doubled);
    }
}
