//! The ways a writer could have written a legal move, and how far what was
//! written is from the nearest of them.

use shakmaty::{CastlingSide, Move, Role, san::San};

use super::distance::Written;
use super::language::Language;
use crate::cost::{
    DROPPED_FILE, Edits, NEEDLESS_DISAMBIGUATION, OTHER_LANGUAGE, OVERSPECIFIED, SHORTHAND, UNDERSPECIFIED,
};

/// The forms of one move, one after the other in one buffer (a move has up
/// to a dozen forms, and they are made for many moves: no allocation each).
#[derive(Debug, Default, Clone)]
pub(crate) struct Forms {
    chars: Vec<char>,
    /// Where each form ends in `chars`, and its extra cost.
    ends: Vec<(usize, f32)>,
}

impl Forms {
    /// Each form's characters with its extra cost.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&[char], f32)> {
        let starts = std::iter::once(0).chain(self.ends.iter().map(|e| e.0));
        starts.zip(&self.ends).map(|(start, &(end, extra))| (&self.chars[start..end], extra))
    }

    pub(crate) fn clear(&mut self) {
        self.chars.clear();
        self.ends.clear();
    }

    fn put(&mut self, c: char) {
        self.chars.push(c);
    }

    fn put_str(&mut self, s: &str) {
        self.chars.extend(s.chars());
    }

    fn put_square(&mut self, sq: shakmaty::Square) {
        self.chars.push(sq.file().char());
        self.chars.push(sq.rank().char());
    }

    /// Ends the form being put, at `extra` cost.
    fn end(&mut self, extra: f32) {
        self.ends.push((self.chars.len(), extra));
    }
}

/// The forms of one legal move, each with an extra cost.
pub(crate) fn forms(m: &Move, san: &San, lang: &Language, english: &Language, out: &mut Forms) {
    out.clear();
    push_forms(m, san, lang, 0.0, out);
    if lang.pieces != english.pieces {
        push_forms(m, san, english, OTHER_LANGUAGE, out);
    }
}

/// The forms of `m` under `lang`'s letters, each costing `extra` more.
fn push_forms(m: &Move, san: &San, lang: &Language, extra: f32, out: &mut Forms) {
    match san {
        San::Castle(side) => castle_forms(m, *side, lang, extra, out),
        San::Normal { role: Role::Pawn, capture, to, promotion, .. } => {
            let from = m.from().expect("normal moves have an origin");
            pawn_forms(from, *capture, *to, *promotion, lang, extra, out);
        }
        San::Normal { role, file, rank, capture, to, .. } => {
            let from = m.from().expect("normal moves have an origin");
            let p = lang.letter(*role);
            out.put_str(p);
            if let Some(f) = file {
                out.put(f.char());
            }
            if let Some(r) = rank {
                out.put(r.char());
            }
            if *capture {
                out.put('x');
            }
            out.put_square(*to);
            out.end(extra);
            out.put_str(p);
            out.put_square(from);
            out.put(if *capture { 'x' } else { '-' });
            out.put_square(*to);
            out.end(extra + OVERSPECIFIED);
            if file.is_none() && rank.is_none() {
                for c in [from.file().char(), from.rank().char()] {
                    out.put_str(p);
                    out.put(c);
                    if *capture {
                        out.put('x');
                    }
                    out.put_square(*to);
                    out.end(extra + NEEDLESS_DISAMBIGUATION);
                }
            } else {
                out.put_str(p);
                if *capture {
                    out.put('x');
                }
                out.put_square(*to);
                out.end(extra + UNDERSPECIFIED);
            }
            out.put_str(p);
            if *capture {
                out.put('x');
            }
            out.put(to.rank().char());
            out.end(extra + DROPPED_FILE);
        }
        _ => {}
    }
}

/// `O-O`, and the king's move in long algebraic (`Ke1-g1`).
fn castle_forms(m: &Move, side: CastlingSide, lang: &Language, extra: f32, out: &mut Forms) {
    out.put_str(if side == CastlingSide::KingSide { "O-O" } else { "O-O-O" });
    out.end(extra);
    if let Some(from) = m.from() {
        let color = if from.rank() == shakmaty::Rank::First { shakmaty::Color::White } else { shakmaty::Color::Black };
        out.put_str(lang.letter(Role::King));
        out.put_square(from);
        out.put('-');
        out.put_square(side.king_to(color));
        out.end(extra + OVERSPECIFIED);
    }
}

/// A pawn move: `exd5`, `e4xd5`, `ed` for a capture; `e4`, `e2-e4` else.
fn pawn_forms(
    from: shakmaty::Square,
    capture: bool,
    to: shakmaty::Square,
    promotion: Option<Role>,
    lang: &Language,
    extra: f32,
    out: &mut Forms,
) {
    let promo = |out: &mut Forms| {
        if let Some(p) = promotion {
            out.put('=');
            out.put_str(lang.letter(p));
        }
    };
    if capture {
        out.put(from.file().char());
        out.put('x');
        out.put_square(to);
        promo(out);
        out.end(extra);
        out.put_square(from);
        out.put('x');
        out.put_square(to);
        promo(out);
        out.end(extra + OVERSPECIFIED);
        out.put(from.file().char());
        out.put('x');
        out.put(to.file().char());
        out.end(extra + SHORTHAND);
    } else {
        out.put_square(to);
        promo(out);
        out.end(extra);
        out.put_square(from);
        out.put('-');
        out.put_square(to);
        promo(out);
        out.end(extra + OVERSPECIFIED);
    }
}

/// How far `written` (an entry's core, see [`super::lex::lex`]) is from the
/// nearest form of a move, given the forms; infinity when over `bound`.
pub(crate) fn fit(written: &Written, forms: &Forms, costs: &Edits, bound: f32) -> f32 {
    let mut best = f32::INFINITY;
    // A form whose lower bound is over the best so far can change nothing
    // (it could not be the best, and over the bound it counts as infinite).
    let bounded = costs.never_negative();
    for (f, extra) in forms.iter() {
        if bounded && extra + written.form_bound(f) > best.min(bound) {
            continue;
        }
        let d = extra + written.distance_to(f, costs, best.min(bound) - extra);
        best = best.min(d);
    }
    if best > bound { f32::INFINITY } else { best }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_forms_of_a_move_in_its_language_and_in_english() {
        use crate::notation::Language;
        use shakmaty::{Chess, Position, san::San};
        let pos = Chess::default();
        let m = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.to() == shakmaty::Square::F3 && m.role() == shakmaty::Role::Knight)
            .unwrap();
        let san = San::from_move(&pos, m);
        let mut out = Forms::default();
        forms(&m, &san, Language::find("es").unwrap(), Language::find("en").unwrap(), &mut out);
        let texts: Vec<String> = out.iter().map(|(f, _)| f.iter().collect()).collect();
        assert!(
            texts.contains(&"Cf3".to_string())
                && texts.contains(&"Cg1-f3".to_string())
                && texts.contains(&"Nf3".to_string())
        );
    }
}
