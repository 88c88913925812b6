//! The report of a conversion, serialised as the JSON of `convert --json`.

use serde::Serialize;

use crate::finding::{Finding, ReportLanguage, Severity, Weight};
use crate::start::Start;

/// The report of one run: one entry per input file.
#[derive(Debug, Clone, Serialize, Default)]
pub struct Report {
    pub files: Vec<FileReport>,
}

/// What became of one file.
#[derive(Debug, Clone, Serialize)]
pub struct FileReport {
    pub path: String,
    /// Why the file could not be read at all (what and where); `null` otherwise.
    pub error: Option<String>,
    pub games: Vec<GameReport>,
}

/// What a person must do with a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Nothing needs a person.
    Validated,
    /// An arbiter must look.
    Review,
    /// Nothing usable was read.
    Rejected,
}

/// One game of a file.
#[derive(Debug, Clone, Serialize)]
pub struct GameReport {
    pub status: Status,
    /// ISO code of the language the piece letters were read in.
    pub language: String,
    /// The PGN tags, in export order.
    pub headers: serde_json::Map<String, serde_json::Value>,
    /// English SAN of the mainline, exactly as in the PGN.
    pub moves: Vec<String>,
    pub result: String,
    pub pgn: String,
    pub findings: Vec<FindingReport>,
    /// A game read from its two copies: both files, in the order given (left
    /// out for a game read from one sheet).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sheets: Option<[String; 2]>,
    /// Which of `sheets` this file is: `"a"` (its PGN holds the game) or `"b"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub copy: Option<&'static str>,
    /// A game read from its two copies: the one of `sheets` whose lines and
    /// columns its findings and PGN comments give (the copy whose reading the
    /// game's moves are taken from); `copies-disagree` names both.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines_in: Option<String>,
    /// For each move, the entry it was read from as written, with its line
    /// and column (`None`: a move not written). For the review page; not in
    /// the JSON, whose findings say what was written where it matters. Empty
    /// for a validated game of a collection (no page shows those).
    #[serde(skip)]
    pub written: Vec<Option<crate::sheet::Entry>>,
    /// Each entry of the sheet no move was read from (a stray mark, one that
    /// fits no legal move, those after it), with how many moves come before
    /// it: the pages show it in its place. Kept where `written` is.
    #[serde(skip)]
    pub unread: Vec<(usize, crate::sheet::Entry)>,
    /// A game read from its two copies: for each move, the entry of the
    /// other copy (the one of `sheets` that is not `lines_in`) read as it,
    /// as written (`None`: that copy does not write it). Kept where
    /// `written` is.
    #[serde(skip)]
    pub other_written: Vec<Option<crate::sheet::Entry>>,
    /// Each entry of the other copy no move was read from, with how many
    /// moves come before it, as `unread` is for this one. Kept where
    /// `other_written` is.
    #[serde(skip)]
    pub other_unread: Vec<(usize, crate::sheet::Entry)>,
}

/// A finding as reported.
#[derive(Debug, Clone, Serialize)]
pub struct FindingReport {
    pub code: &'static str,
    pub severity: Severity,
    /// `doubt`: the finding sends the game to review; `notice`: it goes
    /// with the published game.
    pub weight: Weight,
    pub ply: Option<u32>,
    #[serde(rename = "move")]
    pub move_label: Option<String>,
    pub written: Option<String>,
    pub replacement: Option<String>,
    pub alternatives: Vec<String>,
    pub message: String,
    /// For a repair: how much less likely the best different reading is (nats).
    pub margin: Option<f32>,
    pub line: Option<usize>,
    pub col: Option<usize>,
    /// About the result, not the moves ([`Finding::is_about_result`]).
    #[serde(skip)]
    pub about_result: bool,
    /// A notice the arbiter reads on the desk's list ([`Finding::is_told`]).
    #[serde(skip)]
    pub told: bool,
}

impl GameReport {
    /// Where the game begins, as its tags give it (`FEN`, `Variant`): the
    /// position its moves are played from.
    pub fn start(&self) -> Start {
        Start::of_tags(|k| self.headers.get(k).and_then(|v| v.as_str())).unwrap_or_default()
    }
}

impl From<&Finding> for FindingReport {
    /// The finding with its message in English.
    fn from(f: &Finding) -> Self {
        FindingReport::of(f, ReportLanguage::En)
    }
}

impl FindingReport {
    /// The finding as reported, its message in `lang`.
    pub fn of(f: &Finding, lang: ReportLanguage) -> Self {
        let at = f.at();
        let located = at.filter(|a| a.line > 0);
        FindingReport {
            code: f.code(),
            severity: f.severity(),
            weight: f.weight(),
            ply: at.map(|a| a.ply),
            move_label: at.map(|a| a.move_label()),
            written: f.written().map(str::to_string),
            replacement: f.replacement().map(str::to_string),
            alternatives: f.alternatives(),
            message: f.message_in(lang),
            margin: f.margin(),
            line: located.map(|a| a.line),
            col: located.map(|a| a.col),
            about_result: f.is_about_result(),
            told: f.is_told(),
        }
    }
}

impl FileReport {
    /// The PGN file for this input: every game that is not rejected, in
    /// order; a game read from two copies only in its first copy's file.
    pub fn pgn(&self) -> Option<String> {
        let games: Vec<&str> = self
            .games
            .iter()
            .filter(|g| g.status != Status::Rejected && g.copy != Some("b"))
            .map(|g| g.pgn.as_str())
            .collect();
        (!games.is_empty()).then(|| games.join("\n"))
    }

    /// Whether anything in this file was rejected (sets the exit status).
    pub fn rejected(&self) -> bool {
        self.error.is_some() || self.games.iter().any(|g| g.status == Status::Rejected)
    }
}
