//! The ways a writer could have written a legal move, and how far what was
//! written is from the nearest of them.

use shakmaty::{Move, Role, san::San};

use super::distance::{SheetCosts, distance_chars};
use super::language::Language;

/// Extra cost of a move written with English letters on a sheet in another language.
pub const COST_OTHER_LANGUAGE: f32 = 2.0;
/// Extra cost of a pawn capture cut short (`ed`, `exd`): a shorthand, not a slip.
pub const COST_SHORTHAND: f32 = 1.0;
/// Extra cost of a needless disambiguation (`Cgf3` where only one knight goes to f3).
pub const COST_OVERSPECIFIED: f32 = 0.5;

/// The forms of one legal move, as character strings, each with an extra cost.
pub fn forms(m: &Move, san: &San, lang: &Language, english: &Language, out: &mut Vec<(Vec<char>, f32)>) {
    out.clear();
    push_forms(m, san, lang, 0.0, out);
    if !std::ptr::eq(lang, english) && lang.pieces != english.pieces {
        push_forms(m, san, english, COST_OTHER_LANGUAGE, out);
    }
}

fn push_forms(m: &Move, san: &San, lang: &Language, extra: f32, out: &mut Vec<(Vec<char>, f32)>) {
    let letter = |r: Role| lang.letter(r);
    match san {
        San::Castle(side) => {
            let s = if *side == shakmaty::CastlingSide::KingSide { "O-O" } else { "O-O-O" };
            out.push((s.chars().collect(), extra));
            if let (Some(from), to) = (m.from(), m.to()) {
                let king_to = shakmaty::Square::from_coords(
                    if *side == shakmaty::CastlingSide::KingSide { shakmaty::File::G } else { shakmaty::File::C },
                    to.rank(),
                );
                out.push((format!("{}{from}-{king_to}", letter(Role::King)).chars().collect(), extra + COST_OVERSPECIFIED));
            }
        }
        San::Normal { role, file, rank, capture, to, promotion } => {
            let x = if *capture { "x" } else { "" };
            let promo = promotion.map(|p| format!("={}", letter(p))).unwrap_or_default();
            let from = m.from().expect("normal moves have an origin");
            if *role == Role::Pawn {
                if *capture {
                    out.push((format!("{}x{to}{promo}", from.file()).chars().collect(), extra));
                    out.push((format!("{from}x{to}{promo}").chars().collect(), extra + COST_OVERSPECIFIED));
                    out.push((format!("{}x{}", from.file(), to.file()).chars().collect(), extra + COST_SHORTHAND));
                } else {
                    out.push((format!("{to}{promo}").chars().collect(), extra));
                    out.push((format!("{from}-{to}{promo}").chars().collect(), extra + COST_OVERSPECIFIED));
                }
            } else {
                let p = letter(*role);
                let dis = format!("{}{}", file.map(|f| f.char().to_string()).unwrap_or_default(), rank.map(|r| r.char().to_string()).unwrap_or_default());
                out.push((format!("{p}{dis}{x}{to}").chars().collect(), extra));
                let sep = if *capture { "x" } else { "-" };
                out.push((format!("{p}{from}{sep}{to}").chars().collect(), extra + COST_OVERSPECIFIED));
                if dis.is_empty() {
                    out.push((format!("{p}{}{x}{to}", from.file()).chars().collect(), extra + COST_OVERSPECIFIED));
                    out.push((format!("{p}{}{x}{to}", from.rank()).chars().collect(), extra + COST_OVERSPECIFIED));
                }
            }
        }
        _ => {}
    }
}

/// How far `written` (an entry's core, see [`super::lex::lex`]) is from the
/// nearest form of a move, given the forms.
pub fn fit(written: &[char], forms: &[(Vec<char>, f32)], costs: &SheetCosts) -> f32 {
    forms.iter().map(|(f, extra)| extra + distance_chars(written, f, costs)).fold(f32::INFINITY, f32::min)
}
