//! Where a game begins: the standard starting position, or the position a
//! sheet sets up (a `FEN` header, from `[FEN "..."]`, a `FEN:` line or a
//! `fen:` key; a `Variant` such as Chess960). Every reading of a sheet, and
//! every replay of its game, starts from its [`Start`].

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position};

use crate::sheet::Sheet;

/// The position a game begins in, with its side to move and move number.
#[derive(Debug, Clone)]
pub struct Start {
    /// The position before the game's first move (its castling mode says
    /// whether it is a Chess960 game).
    pub position: Chess,
}

/// Why the start a sheet gives cannot be used: the game cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetUpError {
    /// The FEN is not one (its fields cannot be read).
    #[error("FEN \"{fen}\" cannot be read: {why}")]
    Unreadable { fen: String, why: String },
    /// The FEN reads, but its position breaks the rules (no king, two kings,
    /// the side not to move in check, pawns on a back rank ...).
    #[error("FEN \"{fen}\" is not a legal position: {why}")]
    Illegal { fen: String, why: String },
    /// A Chess960 game whose starting position is not given.
    #[error("Variant \"{variant}\" without a FEN: the starting position is not known")]
    NotGiven { variant: String },
    /// A variant of other rules than chess's (Crazyhouse, Atomic ...).
    #[error("Variant \"{variant}\" is not chess: only chess and Chess960 games are read")]
    OtherRules { variant: String },
}

/// Two starts are one where they set up the same FEN by the same castling
/// rules (move counters included).
impl PartialEq for Start {
    fn eq(&self, other: &Start) -> bool {
        self.chess960() == other.chess960() && self.fen() == other.fen()
    }
}

impl Default for Start {
    fn default() -> Self {
        Start::standard()
    }
}

impl Start {
    /// The standard starting position.
    pub fn standard() -> Start {
        Start { position: Chess::default() }
    }

    /// The start `fen` sets up, Chess960 castling where `chess960` says so or
    /// the FEN's castling field names rook files (X-FEN, Shredder-FEN).
    pub fn from_fen(fen: &str, chess960: bool) -> Result<Start, SetUpError> {
        let fen = fen.trim();
        let parsed = Fen::from_ascii(fen.as_bytes())
            .map_err(|e| SetUpError::Unreadable { fen: fen.to_string(), why: e.to_string() })?;
        let castling = fen.split_whitespace().nth(2).unwrap_or("-");
        let files = castling.chars().any(|c| matches!(c.to_ascii_lowercase(), 'a'..='h'));
        let mode = CastlingMode::from_chess960(chess960 || files);
        let position = parsed
            .into_position::<Chess>(mode)
            .map_err(|e| SetUpError::Illegal { fen: fen.to_string(), why: e.to_string() })?;
        Ok(Start { position })
    }

    /// The start `sheet` gives: its `FEN` header (any case of the key), in
    /// Chess960 where its `Variant` says so; the standard start where it
    /// gives none.
    pub fn of(sheet: &Sheet) -> Result<Start, SetUpError> {
        Start::of_tags(|key| sheet.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(key)).map(|(_, v)| v.as_str()))
    }

    /// The start of a game as its tags give it (`value` looks a tag up):
    /// `FEN`, in Chess960 where `Variant` says so, else the standard start.
    /// The tags of a game's report give its start again.
    pub fn of_tags<'v>(value: impl Fn(&str) -> Option<&'v str>) -> Result<Start, SetUpError> {
        let value = |key: &str| value(key).map(str::trim);
        let variant = value("Variant").filter(|v| !v.is_empty());
        let chess960 = variant.is_some_and(is_chess960);
        if let Some(v) = variant.filter(|v| !chess960 && !is_chess(v)) {
            return Err(SetUpError::OtherRules { variant: v.to_string() });
        }
        match value("FEN").filter(|f| !f.is_empty()) {
            Some(fen) => Start::from_fen(fen, chess960),
            None if chess960 => Err(SetUpError::NotGiven { variant: variant.unwrap_or_default().to_string() }),
            None => Ok(Start::standard()),
        }
    }

    /// Whether this is the standard start (which a FEN may also give), read
    /// by standard castling rules: a game from it is read as any other.
    pub fn is_standard(&self) -> bool {
        let p = &self.position;
        !self.chess960() && p.fullmoves().get() == 1 && p.halfmoves() == 0 && *p == Chess::default()
    }

    /// Whether the game is played by Chess960's castling rules.
    pub fn chess960(&self) -> bool {
        self.position.castles().mode() == CastlingMode::Chess960
    }

    /// The start as a FEN (X-FEN castling where rooks need naming).
    pub fn fen(&self) -> String {
        Fen::from_position(&self.position, EnPassantMode::Legal).to_string()
    }

    /// The game's first ply in a sheet's numbering (1: White's first move):
    /// `... b - - 0 23` begins with Black's 23rd move, ply 46.
    pub fn first_ply(&self) -> u32 {
        first_ply(&self.position)
    }
}

/// The ply, in a sheet's numbering, of the first move played from `pos`.
pub(crate) fn first_ply(pos: &Chess) -> u32 {
    2 * (pos.fullmoves().get() - 1) + if pos.turn() == Color::Black { 2 } else { 1 }
}

/// Whether a `Variant` names standard chess (Lichess's `From Position` is a
/// set-up game of chess).
fn is_chess(variant: &str) -> bool {
    let v = squeezed(variant);
    matches!(v.as_str(), "standard" | "chess" | "fromposition")
}

/// Whether a `Variant` names Chess960: `Chess960`, `chess 960`,
/// `Fischerandom`, `Fischer Random`, `FRC`, `Freestyle`.
fn is_chess960(variant: &str) -> bool {
    let v = squeezed(variant);
    v.contains("960") || v.starts_with("fischer") || v == "frc" || v.starts_with("freestyle")
}

/// A variant's name in lower case without spaces, dashes or underscores.
fn squeezed(s: &str) -> String {
    s.chars().filter(|c| !matches!(c, ' ' | '-' | '_')).flat_map(char::to_lowercase).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_up_position_starts_at_its_own_move() {
        let start = Start::from_fen("6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 23", false).unwrap();
        assert!(!start.is_standard());
        assert_eq!(start.first_ply(), 46); // Black's 23rd move
        assert!(Start::standard().is_standard());
    }

    fn sheet(headers: &[(&str, &str)]) -> Sheet {
        let mut s = Sheet::default();
        for (k, v) in headers {
            s.set_header(k, v);
        }
        s
    }

    #[test]
    fn a_fen_of_the_standard_start_is_the_standard_start() {
        let s = sheet(&[("FEN", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")]);
        assert!(Start::of(&s).unwrap().is_standard());
        assert!(Start::of(&Sheet::default()).unwrap().is_standard());
    }

    #[test]
    fn chess960_by_the_variant_or_by_rook_files() {
        let fen = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1";
        for variant in ["Chess960", "chess 960", "Fischerandom", "fischer random"] {
            assert!(Start::of(&sheet(&[("Variant", variant), ("FEN", fen)])).unwrap().chess960(), "{variant}");
        }
        let shredder = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1";
        assert!(Start::of(&sheet(&[("fen", shredder)])).unwrap().chess960());
    }

    #[test]
    fn a_start_that_cannot_be_used_says_why() {
        let bad = Start::of(&sheet(&[("FEN", "8/8/8/8 w - - 0 1")])).unwrap_err();
        assert!(bad.to_string().contains("8/8/8/8 w - - 0 1"), "{bad}");
        let kings = Start::of(&sheet(&[("FEN", "K6K/8/8/8/8/8/8/k7 w - - 0 1")])).unwrap_err();
        assert!(matches!(kings, SetUpError::Illegal { .. }), "{kings}");
        let unknown = Start::of(&sheet(&[("Variant", "Chess960")])).unwrap_err();
        assert_eq!(unknown, SetUpError::NotGiven { variant: "Chess960".into() });
        assert!(matches!(Start::of(&sheet(&[("Variant", "Atomic")])), Err(SetUpError::OtherRules { .. })));
    }
}
