//! A move's SAN as the PGN writes it: one spelling for the game's moves
//! ([`super::pgn`]) and the variations' ([`super::variation`]).

use shakmaty::san::SanPlus;

/// The SAN of a move with its check mark, as written to the PGN.
pub(crate) fn san_text(san: SanPlus) -> String {
    let mut s = String::with_capacity(8);
    san.append_to_string(&mut s);
    s
}
