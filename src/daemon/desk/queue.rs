//! The queue page: the games of one list (to decide, waiting for the other
//! copy, published with notices, published, rejected), newest first,
//! filtered by round and finding, a page of them at a time, and each
//! round's count in every list.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use crate::daemon::listing::Waiting;
use crate::emit::page::{Words, escape, url_escape};
use crate::emit::report::Status;

/// The round of a `Round` tag: `4` of `4.1`.
fn round_of(r: &str) -> &str {
    r.split('.').next().unwrap_or("").trim()
}

/// The desk's lists, as the `status` query names them. A game is in one of
/// the first two or one of the last three (published with notices is
/// published too): the folders' counts are `review` + `waiting` for
/// review/, `validated` for pgn/, `rejected` for rejected/.
const LISTS: [&str; 5] = ["review", "waiting", "notices", "validated", "rejected"];

/// Games on one page of a list.
pub(super) const PAGE: usize = 100;

/// Whether game `g` is in list `list` (`all`: every game).
fn in_list(g: &Waiting, list: &str) -> bool {
    match list {
        "review" => g.status == Status::Review && !g.waiting_copy,
        "waiting" => g.waiting_copy,
        "notices" => g.status == Status::Validated && !g.notices.is_empty(),
        "validated" => g.status == Status::Validated,
        "rejected" => g.status == Status::Rejected,
        _ => true,
    }
}

/// The body of the queue page for `query` (`status`, `round`, `finding`,
/// `page`, `done`).
pub(super) fn render(games: &[Waiting], query: &BTreeMap<String, String>, w: &Words, review: &Path) -> String {
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
        .filter(|g| in_list(g, status))
        .filter(|g| round.is_none_or(|r| round_of(&g.round) == r))
        .filter(|g| code.is_none_or(|c| g.codes.iter().chain(&g.notices).any(|x| x == c)))
        .collect();
    let _ = write!(out, "<h1>{}</h1>", w.queue);
    tabs(&mut out, games, status, round, w);
    filters(&mut out, games, status, round, code, w);
    let pages = shown.len().div_ceil(PAGE).max(1);
    let page = query.get("page").and_then(|p| p.trim().parse::<usize>().ok()).unwrap_or(1).clamp(1, pages);
    let n = shown.len();
    let _ = write!(out, "<p id=\"count\">{n} {}</p>", if n == 1 { w.game } else { w.games_waiting });
    let link = |p: usize| {
        let mut href = format!("/?status={}", url_escape(status));
        for (k, v) in [("round", round), ("finding", code)] {
            if let Some(v) = v {
                let _ = write!(href, "&amp;{k}={}", url_escape(v));
            }
        }
        format!("{href}&amp;page={p}")
    };
    pager(&mut out, page, pages, link, w);
    let _ = write!(
        out,
        "<table id=\"queue\"><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th></th></tr>",
        w.game, w.round, w.findings, w.sheets,
    );
    for g in shown.iter().skip((page - 1) * PAGE).take(PAGE) {
        let codes = dedup(g.codes.iter().chain(&g.notices)).join(", ");
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
    pager(&mut out, page, pages, link, w);
    counts(&mut out, games, w, review);
    out
}

/// Where the list is (`page` of `pages`), with links to the page before
/// and after it; nothing for a list of one page.
fn pager(out: &mut String, page: usize, pages: usize, link: impl Fn(usize) -> String, w: &Words) {
    if pages == 1 {
        return;
    }
    out.push_str("<p class=\"pages\">");
    if page > 1 {
        let _ = write!(out, "<a class=\"previous\" rel=\"prev\" href=\"{}\">← {}</a> · ", link(page - 1), w.previous);
    }
    let _ = write!(out, "{} {page} / {pages}", w.page);
    if page < pages {
        let _ = write!(out, " · <a class=\"next\" rel=\"next\" href=\"{}\">{} →</a>", link(page + 1), w.next);
    }
    out.push_str("</p>");
}

fn folder(s: Status) -> &'static str {
    match s {
        Status::Validated => "validated",
        Status::Review => "review",
        Status::Rejected => "rejected",
    }
}

fn dedup<'a>(codes: impl Iterator<Item = &'a String>) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for c in codes {
        if !out.contains(&c.as_str()) {
            out.push(c);
        }
    }
    out
}

/// One link per list, with how many of the games (of `round`, if given)
/// are in it.
fn tabs(out: &mut String, games: &[Waiting], status: &str, round: Option<&str>, w: &Words) {
    out.push_str("<p id=\"lists\">");
    for (list, label) in LISTS.iter().zip(w.lists) {
        let n = games.iter().filter(|g| in_list(g, list) && round.is_none_or(|r| round_of(&g.round) == r)).count();
        let r = round.map_or(String::new(), |r| format!("&amp;round={}", escape(r)));
        let (open, close) = if *list == status { ("<b>", "</b>") } else { ("", "") };
        let _ = write!(
            out,
            "{open}<a class=\"list\" data-list=\"{list}\" href=\"/?status={list}{r}\">{label} (<span class=\"n\">{n}</span>)</a>{close} · "
        );
    }
    out.push_str("</p>");
}

/// The filter form: list, round, finding.
fn filters(out: &mut String, games: &[Waiting], status: &str, round: Option<&str>, code: Option<&str>, w: &Words) {
    out.push_str("<form id=\"filters\" method=\"get\" action=\"/\"><select name=\"status\">");
    for (s, label) in LISTS.iter().zip(w.lists).chain([(&"all", w.all)]) {
        let _ = write!(out, "<option value=\"{s}\"{}>{label}</option>", if *s == status { " selected" } else { "" });
    }
    let _ = write!(out, "</select> <label>{} <select name=\"round\"><option value=\"\">{}</option>", w.round, w.all);
    for r in rounds(games) {
        let sel = if Some(r) == round { " selected" } else { "" };
        let _ = write!(out, "<option value=\"{0}\"{sel}>{0}</option>", escape(r));
    }
    let _ = write!(
        out,
        "</select></label> <label>{} <select name=\"finding\"><option value=\"\">{}</option>",
        w.findings, w.all
    );
    let mut codes: Vec<&str> =
        games.iter().flat_map(|g| g.codes.iter().chain(&g.notices).map(String::as_str)).collect();
    codes.sort_unstable();
    codes.dedup();
    for c in codes {
        let sel = if Some(c) == code { " selected" } else { "" };
        let _ = write!(out, "<option value=\"{0}\"{sel}>{0}</option>", escape(c));
    }
    let _ = write!(out, "</select></label> <button type=\"submit\">{}</button></form>", w.show);
}

/// The rounds of the games, in order (numbers first).
fn rounds(games: &[Waiting]) -> Vec<&str> {
    let set: std::collections::BTreeSet<&str> =
        games.iter().map(|g| round_of(&g.round)).filter(|r| !r.is_empty() && *r != "?").collect();
    let mut r: Vec<&str> = set.into_iter().collect();
    r.sort_by_key(|a| (a.parse::<u32>().ok(), *a));
    r
}

/// Each round's games in every list, and its boards without a sheet (as
/// `review/round-<n>.missing.txt` gives them, with pairings).
fn counts(out: &mut String, games: &[Waiting], w: &Words, review: &Path) {
    let _ = write!(out, "<h2>{}</h2><table id=\"counts\"><tr><th>{}</th>", w.rounds, w.round);
    for label in w.lists {
        let _ = write!(out, "<th>{label}</th>");
    }
    let _ = write!(out, "<th>{}</th></tr>", w.boards_without_sheet);
    // One pass over the games, whatever the number of rounds.
    let mut by_round: std::collections::HashMap<&str, [usize; LISTS.len()]> = std::collections::HashMap::new();
    for g in games {
        let n = by_round.entry(round_of(&g.round)).or_default();
        for (i, list) in LISTS.iter().enumerate() {
            n[i] += usize::from(in_list(g, list));
        }
    }
    for r in rounds(games) {
        let missing = std::fs::read_to_string(review.join(format!("round-{r}.missing.txt")))
            .ok()
            .and_then(|t| t.lines().find_map(|l| l.strip_prefix("boards without a scoresheet: ").map(str::to_string)))
            .map_or(0, |l| if l == "none" { 0 } else { l.split(',').count() });
        let _ =
            write!(out, "<tr data-round=\"{0}\"><td><a href=\"/?status=all&amp;round={0}\">{0}</a></td>", escape(r));
        let n = by_round.get(r).copied().unwrap_or_default();
        for (list, n) in LISTS.iter().zip(n) {
            let _ =
                write!(out, "<td class=\"{list}\"><a href=\"/?status={list}&amp;round={}\">{n}</a></td>", escape(r));
        }
        let _ = write!(out, "<td class=\"missing\">{missing}</td></tr>");
    }
    out.push_str("</table>");
}
