//! The ways a writer could have written a legal move, and how far what was
//! written is from the nearest of them.

use shakmaty::{CastlingSide, Move, Role, san::San};

use super::distance::{SheetCosts, Written};
use super::language::Language;

/// Extra cost of a move written with English letters on a sheet in another language.
pub const COST_OTHER_LANGUAGE: f32 = 2.0;
/// Extra cost of a pawn capture cut short (`ed`, `exd`): a shorthand, not a slip.
pub const COST_SHORTHAND: f32 = 1.0;
/// Extra cost of a needless disambiguation (`Cgf3` where only one knight goes to f3).
pub const COST_OVERSPECIFIED: f32 = 0.5;

/// The forms of one legal move, as character strings, each with an extra cost.
///
/// ```
/// use scoresheet::notation::{Language, forms::forms};
/// use shakmaty::{Chess, Position, san::San};
/// let pos = Chess::default();
/// let m = pos.legal_moves().into_iter().find(|m| m.to() == shakmaty::Square::F3 && m.role() == shakmaty::Role::Knight).unwrap();
/// let san = San::from_move(&pos, m);
/// let mut out = Vec::new();
/// forms(&m, &san, Language::find("es").unwrap(), Language::find("en").unwrap(), &mut out);
/// let texts: Vec<String> = out.iter().map(|(f, _)| f.iter().collect()).collect();
/// assert!(texts.contains(&"Cf3".to_string()) && texts.contains(&"Cg1-f3".to_string()) && texts.contains(&"Nf3".to_string()));
/// ```
pub fn forms(m: &Move, san: &San, lang: &Language, english: &Language, out: &mut Vec<(Vec<char>, f32)>) {
    out.clear();
    push_forms(m, san, lang, 0.0, out);
    if lang.pieces != english.pieces {
        push_forms(m, san, english, COST_OTHER_LANGUAGE, out);
    }
}

/// Builds one form from parts without going through `format!`.
fn form(parts: &[&dyn Part], extra: f32, out: &mut Vec<(Vec<char>, f32)>) {
    let mut v = Vec::with_capacity(8);
    for p in parts {
        p.put(&mut v);
    }
    out.push((v, extra));
}

trait Part {
    fn put(&self, v: &mut Vec<char>);
}

impl Part for &str {
    fn put(&self, v: &mut Vec<char>) {
        v.extend(self.chars());
    }
}

impl Part for char {
    fn put(&self, v: &mut Vec<char>) {
        v.push(*self);
    }
}

impl Part for shakmaty::Square {
    fn put(&self, v: &mut Vec<char>) {
        v.push(self.file().char());
        v.push(self.rank().char());
    }
}

fn push_forms(m: &Move, san: &San, lang: &Language, extra: f32, out: &mut Vec<(Vec<char>, f32)>) {
    match san {
        San::Castle(side) => {
            let s = if *side == CastlingSide::KingSide { "O-O" } else { "O-O-O" };
            form(&[&s], extra, out);
            if let Some(from) = m.from() {
                let king_to = side.king_to(if from.rank() == shakmaty::Rank::First {
                    shakmaty::Color::White
                } else {
                    shakmaty::Color::Black
                });
                form(&[&lang.letter(Role::King), &from, &'-', &king_to], extra + COST_OVERSPECIFIED, out);
            }
        }
        San::Normal { role, file, rank, capture, to, promotion } => {
            let from = m.from().expect("normal moves have an origin");
            let promo: Vec<char> =
                promotion.map(|p| std::iter::once('=').chain(lang.letter(p).chars()).collect()).unwrap_or_default();
            let promo: String = promo.into_iter().collect();
            let promo = promo.as_str();
            if *role == Role::Pawn {
                if *capture {
                    form(&[&from.file().char(), &'x', to, &promo], extra, out);
                    form(&[&from, &'x', to, &promo], extra + COST_OVERSPECIFIED, out);
                    form(&[&from.file().char(), &'x', &to.file().char()], extra + COST_SHORTHAND, out);
                } else {
                    form(&[to, &promo], extra, out);
                    form(&[&from, &'-', to, &promo], extra + COST_OVERSPECIFIED, out);
                }
            } else {
                let p = lang.letter(*role);
                let x: &str = if *capture { "x" } else { "" };
                let f: &str = &file.map(|f| f.char().to_string()).unwrap_or_default();
                let r: &str = &rank.map(|r| r.char().to_string()).unwrap_or_default();
                form(&[&p, &f, &r, &x, to], extra, out);
                form(&[&p, &from, &if *capture { 'x' } else { '-' }, to], extra + COST_OVERSPECIFIED, out);
                if file.is_none() && rank.is_none() {
                    form(&[&p, &from.file().char(), &x, to], extra + COST_OVERSPECIFIED, out);
                    form(&[&p, &from.rank().char(), &x, to], extra + COST_OVERSPECIFIED, out);
                }
            }
        }
        _ => {}
    }
}

/// How far `written` (an entry's core, see [`super::lex::lex`]) is from the
/// nearest form of a move, given the forms; infinity when over `bound`.
pub fn fit(written: &Written, forms: &[(Vec<char>, f32)], costs: &SheetCosts, bound: f32) -> f32 {
    let mut best = f32::INFINITY;
    for (f, extra) in forms {
        let d = extra + written.distance_to(f, costs, best.min(bound) - extra);
        best = best.min(d);
    }
    if best > bound { f32::INFINITY } else { best }
}
