//! A weighted edit distance for what people write: confusable characters
//! (an `l` read for a `1`), a dropped `x`, a doubled letter, cost far less than
//! an unrelated substitution. Optimal string alignment (restricted
//! Damerau-Levenshtein); with every cost 1 it is `strsim::osa_distance`.

/// The costs of the edit operations, in "nats" of surprise: exact is 0.
pub trait EditCosts {
    fn substitute(&self, from: char, to: char) -> f32;
    /// Cost of `c` written where nothing was meant; `prev` is the character before it.
    fn insert(&self, c: char, prev: Option<char>) -> f32;
    /// Cost of leaving out `c`.
    fn delete(&self, c: char) -> f32;
    fn transpose(&self, a: char, b: char) -> f32;
}

/// Every operation costs 1: the plain OSA distance.
pub struct Uniform;

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

/// Groups of characters that are read or typed for one another on scoresheets.
const CONFUSABLE: &[&str] = &[
    "1lI7i|!", "0OoDQ", "5Ss", "8B3", "6bG", "9gq", "2Zz", "ce", "hbk", "ft", "ad", "49", "uv", "nmh", "xX", "KkК", "CcС",
];

/// Characters whose absence or presence says little: capture, dashes, checks.
const LIGHT: &str = "x:-=+#/() .";

/// The costs scoresheets call for.
#[derive(Debug, Clone, Copy)]
pub struct SheetCosts {
    pub confusable: f32,
    pub case: f32,
    pub adjacent: f32,
    pub substitute: f32,
    pub light: f32,
    pub doubled: f32,
    pub indel: f32,
    pub transpose: f32,
}

impl Default for SheetCosts {
    fn default() -> Self {
        SheetCosts { confusable: 2.5, case: 1.5, adjacent: 3.5, substitute: 6.0, light: 1.0, doubled: 2.0, indel: 5.0, transpose: 3.0 }
    }
}

impl EditCosts for SheetCosts {
    fn substitute(&self, a: char, b: char) -> f32 {
        if a == b {
            0.0
        } else if a.to_lowercase().eq(b.to_lowercase()) {
            self.case
        } else if CONFUSABLE.iter().any(|g| g.contains(a) && g.contains(b)) {
            self.confusable
        } else if adjacent(a, b) {
            self.adjacent
        } else if LIGHT.contains(a) && LIGHT.contains(b) {
            self.light
        } else {
            self.substitute
        }
    }
    fn insert(&self, c: char, prev: Option<char>) -> f32 {
        if LIGHT.contains(c) {
            self.light
        } else if prev == Some(c) {
            self.doubled
        } else {
            self.indel
        }
    }
    fn delete(&self, c: char) -> f32 {
        if LIGHT.contains(c) { self.light } else { self.indel }
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
/// something the writer or typist did to `meant`.
///
/// ```
/// use scoresheet::notation::distance::{distance, SheetCosts, Uniform};
/// let c = SheetCosts::default();
/// // "Clf3" for "C1f3": an l read for a 1 costs far less than an unrelated letter.
/// assert!(distance("Clf3", "C1f3", &c) < distance("Cdf3", "C1f3", &c));
/// assert_eq!(distance("abcd", "acbd", &Uniform), 1.0);
/// ```
pub fn distance(written: &str, meant: &str, costs: &impl EditCosts) -> f32 {
    let w: Vec<char> = written.chars().collect();
    let m: Vec<char> = meant.chars().collect();
    distance_chars(&w, &m, costs)
}

/// [`distance`] on character slices, for callers that compare one written
/// entry with many candidate moves.
pub fn distance_chars(w: &[char], m: &[char], costs: &impl EditCosts) -> f32 {
    let (n, k) = (w.len(), m.len());
    let width = k + 1;
    // Three rows suffice for OSA; small fixed buffers avoid allocation for entries.
    let mut rows = [[0f32; 32]; 3];
    if width > 32 {
        return distance_alloc(w, m, costs);
    }
    for j in 1..=k {
        rows[0][j] = rows[0][j - 1] + costs.delete(m[j - 1]);
    }
    for i in 1..=n {
        let (cur, prev, prev2) = (i % 3, (i + 2) % 3, (i + 1) % 3);
        rows[cur][0] = rows[prev][0] + costs.insert(w[i - 1], (i > 1).then(|| w[i - 2]));
        for j in 1..=k {
            let mut best = rows[prev][j - 1] + costs.substitute(w[i - 1], m[j - 1]);
            best = best.min(rows[prev][j] + costs.insert(w[i - 1], (i > 1).then(|| w[i - 2])));
            best = best.min(rows[cur][j - 1] + costs.delete(m[j - 1]));
            if i > 1 && j > 1 && w[i - 1] == m[j - 2] && w[i - 2] == m[j - 1] && w[i - 1] != w[i - 2] {
                best = best.min(rows[prev2][j - 2] + costs.transpose(w[i - 2], w[i - 1]));
            }
            rows[cur][j] = best;
        }
    }
    rows[n % 3][k]
}

fn distance_alloc(w: &[char], m: &[char], costs: &impl EditCosts) -> f32 {
    let (n, k) = (w.len(), m.len());
    let mut d = vec![vec![0f32; k + 1]; n + 1];
    for j in 1..=k {
        d[0][j] = d[0][j - 1] + costs.delete(m[j - 1]);
    }
    for i in 1..=n {
        d[i][0] = d[i - 1][0] + costs.insert(w[i - 1], (i > 1).then(|| w[i - 2]));
        for j in 1..=k {
            let mut best = d[i - 1][j - 1] + costs.substitute(w[i - 1], m[j - 1]);
            best = best.min(d[i - 1][j] + costs.insert(w[i - 1], (i > 1).then(|| w[i - 2])));
            best = best.min(d[i][j - 1] + costs.delete(m[j - 1]));
            if i > 1 && j > 1 && w[i - 1] == m[j - 2] && w[i - 2] == m[j - 1] && w[i - 1] != w[i - 2] {
                best = best.min(d[i - 2][j - 2] + costs.transpose(w[i - 2], w[i - 1]));
            }
            d[i][j] = best;
        }
    }
    d[n][k]
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

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
    fn confusable_pairs_cost_far_less_than_unrelated_letters() {
        let c = SheetCosts::default();
        for (w, m) in [("Clf3", "C1f3"), ("0-O", "O-O"), ("dS", "d5"), ("DxcB", "Dxc8"), ("eG", "e6"), ("Txq2", "Txg2"), ("QdZ", "Qd2")] {
            assert!(distance(w, m, &c) <= c.confusable, "{w} for {m}");
            assert!(distance(w, m, &c) * 2.0 < c.substitute, "{w} for {m}");
        }
    }

    #[test]
    fn dropped_capture_and_doubled_letters_are_cheap() {
        let c = SheetCosts::default();
        assert_eq!(distance("fe6", "fxe6", &c), c.light);
        assert_eq!(distance("TTf1", "Tf1", &c), c.doubled);
        assert_eq!(distance("e44", "e4", &c), c.doubled);
    }
}
