//! The queue page: the games, newest first, filtered by status, round and
//! finding, and the counts of each round.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use crate::daemon::decide::Waiting;
use crate::emit::page::{Words, escape};
use crate::emit::report::Status;

/// The round of a `Round` tag: `4` of `4.1`.
fn round_of(r: &str) -> &str {
    r.split('.').next().unwrap_or("").trim()
}

/// The body of the queue page for `query` (`status`, `round`, `finding`,
/// `done`).
pub fn render(games: &[Waiting], query: &BTreeMap<String, String>, w: &Words, review: &Path) -> String {
    let mut out = String::new();
    if let Some(g) = query.get("done").and_then(|id| games.iter().find(|g| &g.id == id)) {
        let _ = write!(
            out,
            "<p id=\"message\">{}: {} – {} → {}</p>",
            w.decided,
            escape(&g.white),
            escape(&g.black),
            folder(g.status)
        );
    }
    let status = query.get("status").map_or("review", String::as_str);
    let round = query.get("round").map(|r| r.trim()).filter(|r| !r.is_empty());
    let code = query.get("finding").map(|f| f.trim()).filter(|f| !f.is_empty());
    let shown: Vec<&Waiting> = games
        .iter()
        .filter(|g| status == "all" || folder(g.status) == status || (status == "review" && g.status == Status::Review))
        .filter(|g| round.is_none_or(|r| round_of(&g.round) == r))
        .filter(|g| code.is_none_or(|c| g.codes.iter().any(|x| x == c)))
        .collect();
    let _ = write!(out, "<h1>{}</h1>", w.queue);
    filters(&mut out, games, status, round, code, w);
    let _ = write!(
        out,
        "<p>{} {}</p><table id=\"queue\"><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th></th></tr>",
        shown.len(),
        w.games_waiting,
        w.game,
        w.round,
        w.findings,
        w.sheets,
    );
    for g in shown {
        let codes = dedup(&g.codes).join(", ");
        let _ = write!(
            out,
            "<tr class=\"game\" data-id=\"{id}\"><td><a class=\"open\" href=\"/game/{id}\">{} – {}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&g.white),
            escape(&g.black),
            escape(&g.round),
            escape(&codes),
            escape(&g.sheets.join(", ")),
            if g.decided { w.decided } else { folder(g.status) },
            id = escape(&g.id),
        );
    }
    out.push_str("</table>");
    counts(&mut out, games, w, review);
    out
}

fn folder(s: Status) -> &'static str {
    match s {
        Status::Validated => "validated",
        Status::Review => "review",
        Status::Rejected => "rejected",
    }
}

fn dedup(codes: &[String]) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for c in codes {
        if !out.contains(&c.as_str()) {
            out.push(c);
        }
    }
    out
}

/// The filter form: status, round, finding.
fn filters(out: &mut String, games: &[Waiting], status: &str, round: Option<&str>, code: Option<&str>, w: &Words) {
    out.push_str("<form id=\"filters\" method=\"get\" action=\"/\"><select name=\"status\">");
    for s in ["review", "validated", "rejected", "all"] {
        let label = if s == "all" { w.all } else { s };
        let _ = write!(out, "<option value=\"{s}\"{}>{label}</option>", if s == status { " selected" } else { "" });
    }
    let _ = write!(out, "</select> <label>{} <select name=\"round\"><option value=\"\">{}</option>", w.round, w.all);
    for r in rounds(games) {
        let sel = if Some(r.as_str()) == round { " selected" } else { "" };
        let _ = write!(out, "<option value=\"{0}\"{sel}>{0}</option>", escape(&r));
    }
    let _ = write!(
        out,
        "</select></label> <label>{} <select name=\"finding\"><option value=\"\">{}</option>",
        w.findings, w.all
    );
    let mut codes: Vec<&str> = games.iter().flat_map(|g| g.codes.iter().map(String::as_str)).collect();
    codes.sort_unstable();
    codes.dedup();
    for c in codes {
        let sel = if Some(c) == code { " selected" } else { "" };
        let _ = write!(out, "<option value=\"{0}\"{sel}>{0}</option>", escape(c));
    }
    let _ = write!(out, "</select></label> <button type=\"submit\">{}</button></form>", w.show);
}

/// The rounds of the games, in order (numbers first).
fn rounds(games: &[Waiting]) -> Vec<String> {
    let mut r: Vec<String> =
        games.iter().map(|g| round_of(&g.round).to_string()).filter(|r| !r.is_empty() && r != "?").collect();
    r.sort_by(|a, b| (a.parse::<u32>().ok(), a).cmp(&(b.parse::<u32>().ok(), b)));
    r.dedup();
    r
}

/// Each round's games validated, in review and rejected, and its boards
/// without a sheet (as `review/round-<n>.missing.txt` gives them, with
/// pairings).
fn counts(out: &mut String, games: &[Waiting], w: &Words, review: &Path) {
    let _ = write!(
        out,
        "<h2>{}</h2><table id=\"counts\"><tr><th>{}</th><th>validated</th><th>review</th><th>rejected</th><th>{}</th></tr>",
        w.rounds, w.round, w.boards_without_sheet
    );
    for r in rounds(games) {
        let of = |s: Status| games.iter().filter(|g| round_of(&g.round) == r && g.status == s).count();
        let missing = std::fs::read_to_string(review.join(format!("round-{r}.missing.txt")))
            .ok()
            .and_then(|t| t.lines().find_map(|l| l.strip_prefix("boards without a scoresheet: ").map(str::to_string)))
            .map_or(0, |l| if l == "none" { 0 } else { l.split(',').count() });
        let _ = write!(
            out,
            "<tr data-round=\"{0}\"><td><a href=\"/?status=all&amp;round={0}\">{0}</a></td><td class=\"validated\">{1}</td><td class=\"review\">{2}</td><td class=\"rejected\">{3}</td><td class=\"missing\">{missing}</td></tr>",
            escape(&r),
            of(Status::Validated),
            of(Status::Review),
            of(Status::Rejected),
        );
    }
    out.push_str("</table>");
}
