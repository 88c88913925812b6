//! Which wrong readings no reader could have avoided: sheets whose entries as
//! written are another legal game, and slips that alone make another legal
//! move (as `../shared/eval/score.py` counts them).

use scoresheet::convert::{Options, convert};
use scoresheet::emit::report::Status;
use scoresheet::finding::Severity;
use scoresheet::notation::Language;

/// Reads `entries` (in `lang`, with a `Language:` header) strictly, without
/// repairs: the moves, when they make a legal game to the end.
pub fn read_strictly(entries: &[String], lang: &str) -> Option<Vec<String>> {
    let text = format!("Language: {lang}\n{}", entries.join(" "));
    let mut strict = Options::default();
    strict.params.enabled = false;
    let report = convert("written.txt", text.as_bytes(), &strict);
    // The entries carry no result: a game that needs only its result
    // (`result-missing`) is as legal to the end as a validated one.
    let legal = |g: &scoresheet::emit::report::GameReport| {
        g.status == Status::Validated
            || g.findings.iter().all(|f| f.severity < Severity::Warning || f.code == "result-missing")
    };
    report.games.into_iter().next().filter(legal).map(|g| g.moves)
}

/// Whether the entries as written, read strictly under the true language,
/// make a legal game that is not the truth: no reader can see the slips (as
/// ../shared/eval/score.py).
pub fn undetectable(written: &[String], lang: &str, sans: &[String]) -> bool {
    read_strictly(written, lang).is_some_and(|m| m != sans)
}

/// Fault types that write one wrong entry in place of the move.
pub const SLIP_TYPES: [&str; 6] = ["chars", "square", "piece", "x", "disamb", "english"];

/// The slips of a sheet that, alone on an otherwise clean sheet, make another
/// legal move that the rest of the game never contradicts: `(ply, the move
/// the slip makes)`. `faults` are `(ply, type, written)` as in truth.json.
/// Found by reading the clean sheet with that one slip strictly.
pub fn legal_slips(sans: &[String], lang: &str, faults: &[(usize, &str, &str)]) -> Vec<(usize, String)> {
    let Some(language) = Language::find(lang) else { return Vec::new() };
    let clean: Vec<String> = sans.iter().map(|s| crate::generate::localize(s, language, true)).collect();
    let mut out = Vec::new();
    for &(ply, kind, written) in faults {
        if ply >= sans.len() || !SLIP_TYPES.contains(&kind) {
            continue;
        }
        let mut entries = clean.clone();
        entries[ply] = written.to_string();
        if let Some(moves) = read_strictly(&entries, lang)
            && moves.len() == sans.len()
            && moves[ply] != sans[ply]
        {
            out.push((ply, moves[ply].clone()));
        }
    }
    out
}

/// Whether `moves` differ from `sans` only where a legal slip (see
/// [`legal_slips`]) made the move read. Check marks are left out of the
/// comparison: a slip changes whether later moves give check, and a check mark
/// is not taken as evidence against a reading.
pub fn only_legal_slips(moves: &[String], sans: &[String], slips: &[(usize, String)]) -> bool {
    let bare = |s: &str| s.trim_end_matches(['+', '#']).to_string();
    moves.len() == sans.len()
        && moves
            .iter()
            .zip(sans)
            .enumerate()
            .filter(|(_, (m, s))| bare(m) != bare(s))
            .all(|(p, (m, _))| slips.iter().any(|(q, x)| *q == p && bare(x) == bare(m)))
}

/// The faults of a truth.json entry (its `injected` list) as `(ply, type, written)`.
pub fn truth_faults(injected: &[serde_json::Value]) -> Vec<(usize, &str, &str)> {
    injected
        .iter()
        .filter_map(|f| Some((f["ply"].as_u64()? as usize, f["type"].as_str()?, f["written"].as_str().unwrap_or(""))))
        .collect()
}
