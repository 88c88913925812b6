//! The review page of a game: one self-contained HTML document (no scripts,
//! fonts or images from anywhere: it opens from a USB stick on a laptop
//! without a network) showing the game's headers, its findings in plain
//! words, the moves as read with the doubtful and repaired ones marked, and
//! for each doubt the board before it, the entry as written, the move chosen
//! and the alternatives. `convert --output DIR` writes one beside each file
//! with a game in review, and an index of them.

use std::fmt::Write as _;

use shakmaty::san::San;
use shakmaty::{Chess, Color, Position, Role, Square};

use crate::emit::report::{FindingReport, GameReport, Status};
use crate::finding::Severity;

/// The page of the games of file `file` (its games in review, or any).
///
/// ```
/// use scoresheet::convert::{convert, Options};
/// use scoresheet::emit::page::review_page;
/// let report = convert("board7.txt", b"White: <b>Ana</b>\n\n1.e4 e5 2.Cf3 ? 3.Ab5 a6", &Options::default());
/// let html = review_page("board7.txt", &report.games);
/// assert!(html.contains("<svg") && html.contains("&lt;b&gt;Ana"));
/// assert!(!html.contains("<b>Ana"));
/// ```
pub fn review_page(file: &str, games: &[GameReport]) -> String {
    let mut out = String::new();
    let title = games.first().map_or_else(|| file.to_string(), players);
    head(&mut out, &title);
    let _ = write!(out, "<p class=\"file\">{}</p>", escape(file));
    for (i, g) in games.iter().enumerate() {
        game_section(&mut out, g, i);
    }
    out.push_str("</body></html>\n");
    out
}

/// One line of the index: the page's file name (a link beside the index),
/// the sheet it is of, and its games.
#[derive(Debug, Clone)]
pub struct Listed<'a> {
    pub page: String,
    pub file: String,
    pub games: Vec<&'a GameReport>,
}

/// The index of the review pages of a run.
pub fn index_page(listed: &[Listed<'_>]) -> String {
    let mut out = String::new();
    head(&mut out, "Games for review");
    let _ = write!(
        out,
        "<h1>Games for review</h1><p>{} files</p><table><tr><th>sheet</th><th>game</th><th>round</th><th>findings</th></tr>",
        listed.len()
    );
    for l in listed {
        for g in &l.games {
            let round = header(g, "Round").unwrap_or("?");
            let codes: Vec<&str> = warnings(g).map(|f| f.code).collect();
            let _ = write!(
                out,
                "<tr><td><a href=\"{}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape(&l.page),
                escape(&l.file),
                escape(&players(g)),
                escape(round),
                escape(&codes.join(", "))
            );
        }
    }
    out.push_str("</table></body></html>\n");
    out
}

/// The document's head, its style inline.
fn head(out: &mut String, title: &str) {
    let _ = write!(
        out,
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>{STYLE}</style></head><body>",
        escape(title)
    );
}

const STYLE: &str = "body{font-family:sans-serif;max-width:60em;margin:1em auto;padding:0 1em}\
table{border-collapse:collapse}td,th{padding:.15em .5em;text-align:left;vertical-align:top}\
.moves td{font-family:monospace}.doubt{background:#fde68a}.repaired{background:#dbeafe}\
.finding{margin:.6em 0;padding:.4em .6em;border-left:4px solid #999}.warning{border-color:#d97706}\
.error{border-color:#dc2626}.alt{display:inline-block;border:1px solid #555;border-radius:3px;\
padding:0 .4em;margin:0 .2em}.file{color:#555}svg{margin:.4em 0}";

/// One game: headers, findings, moves, and a board at each doubt.
fn game_section(out: &mut String, g: &GameReport, index: usize) {
    let status = match g.status {
        Status::Validated => "validated",
        Status::Review => "review: an arbiter must look",
        Status::Rejected => "rejected: nothing usable was read",
    };
    let _ = write!(out, "<section id=\"game-{}\"><h1>{}</h1><p>{}</p><table>", index + 1, escape(&players(g)), status);
    for (k, v) in &g.headers {
        let v = v.as_str().unwrap_or_default();
        let _ = write!(out, "<tr><th>{}</th><td>{}</td></tr>", escape(k), escape(v));
    }
    out.push_str("</table>");
    let positions = positions(&g.moves);
    for f in &g.findings {
        finding(out, f, &positions, &g.moves);
    }
    moves_table(out, g);
    out.push_str("</section>");
}

/// A finding in plain words, with the board before its move and the
/// alternatives where it is a doubt.
fn finding(out: &mut String, f: &FindingReport, positions: &[Chess], moves: &[String]) {
    let class = match f.severity {
        Severity::Info => "finding",
        Severity::Warning => "finding warning",
        Severity::Error => "finding error",
    };
    let _ = write!(out, "<div class=\"{class}\"><b>{}</b> ({:?}): {}", escape(f.code), f.severity, escape(&f.message));
    let doubt = !f.alternatives.is_empty() || f.code == "copies-disagree";
    if let Some(k) = f.ply.map(|p| p as usize).filter(|&p| doubt && p >= 1 && p <= positions.len()) {
        out.push_str("<div>");
        out.push_str(&board_svg(&positions[k - 1]));
        let chosen = moves.get(k - 1).map_or("", String::as_str);
        let written = escape(f.written.as_deref().unwrap_or(""));
        let _ = write!(out, "<p>written <code>{written}</code>; read <span class=\"alt\">{}</span>", escape(chosen));
        for a in f.alternatives.iter().filter(|a| a.as_str() != chosen) {
            let _ = write!(out, " or <span class=\"alt\">{}</span>", escape(a));
        }
        if let Some(m) = f.margin {
            let _ = write!(out, " — the reading is {}", likelier(m));
        }
        out.push_str("</p></div>");
    }
    out.push_str("</div>");
}

/// How much likelier a reading is than the next, in words.
fn likelier(margin: f32) -> &'static str {
    match margin {
        m if m >= 6.0 => "much likelier",
        m if m >= 3.0 => "likelier",
        m if m >= 1.0 => "a little likelier",
        _ => "about as likely",
    }
}

/// The moves as written beside the moves as read, numbered, the plies of
/// findings marked (a doubt, or a repair).
fn moves_table(out: &mut String, g: &GameReport) {
    let mark = |ply: usize| -> &'static str {
        let at = |f: &&FindingReport| f.ply == Some(ply as u32);
        if g.findings.iter().filter(at).any(|f| f.severity >= Severity::Warning) {
            " class=\"doubt\""
        } else if g.findings.iter().any(|f| at(&f)) {
            " class=\"repaired\""
        } else {
            ""
        }
    };
    out.push_str("<table class=\"moves\"><tr><th></th><th>White written</th><th>read</th><th>Black written</th><th>read</th></tr>");
    for (n, pair) in g.moves.chunks(2).enumerate() {
        let _ = write!(out, "<tr><td>{}.</td>", n + 1);
        for (i, m) in pair.iter().enumerate() {
            let ply = 2 * n + i + 1;
            let written = match g.written.get(ply - 1).and_then(Option::as_ref) {
                Some(e) => format!("<span title=\"line {}, column {}\">{}</span>", e.line, e.col, escape(&e.text)),
                None => "<i>not written</i>".to_string(),
            };
            let _ = write!(out, "<td{0}>{written}</td><td{0}>{1}</td>", mark(ply), escape(m));
        }
        out.push_str("</tr>");
    }
    let _ = write!(out, "</table><p>{}</p>", escape(&g.result));
}

/// The position before each move (and after the last).
fn positions(moves: &[String]) -> Vec<Chess> {
    let mut pos = Chess::default();
    let mut out = vec![pos.clone()];
    for m in moves {
        let Some(mv) = m.parse::<San>().ok().and_then(|s| s.to_move(&pos).ok()) else { break };
        pos.play_unchecked(mv);
        out.push(pos.clone());
    }
    out
}

/// A board diagram of `pos`, White at the bottom, drawn as SVG: squares,
/// coordinates, and the pieces as their chess symbols.
fn board_svg(pos: &Chess) -> String {
    const S: u32 = 32;
    let mut out = format!(
        "<svg width=\"{0}\" height=\"{0}\" viewBox=\"0 0 {0} {0}\" role=\"img\" aria-label=\"board\">",
        8 * S + 16
    );
    for sq in Square::ALL {
        let (x, y) = (u32::from(sq.file()) * S + 16, (7 - u32::from(sq.rank())) * S);
        let light = (u32::from(sq.file()) + u32::from(sq.rank())) % 2 == 1;
        let _ = write!(
            out,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{S}\" height=\"{S}\" fill=\"{}\"/>",
            if light { "#f0d9b5" } else { "#b58863" }
        );
        if let Some(p) = pos.board().piece_at(sq) {
            let _ = write!(
                out,
                "<text x=\"{}\" y=\"{}\" font-size=\"28\" text-anchor=\"middle\">{}</text>",
                x + S / 2,
                y + S - 6,
                glyph(p.color, p.role)
            );
        }
    }
    for i in 0..8u32 {
        let _ = write!(out, "<text x=\"6\" y=\"{}\" font-size=\"11\">{}</text>", i * S + S / 2 + 4, 8 - i);
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"11\">{}</text>",
            i * S + 16 + S / 2 - 3,
            8 * S + 12,
            char::from(b'a' + i as u8)
        );
    }
    out.push_str("</svg>");
    out
}

/// The chess symbol of a piece.
fn glyph(color: Color, role: Role) -> char {
    let white = ['♔', '♕', '♖', '♗', '♘', '♙'];
    let black = ['♚', '♛', '♜', '♝', '♞', '♟'];
    let i = match role {
        Role::King => 0,
        Role::Queen => 1,
        Role::Rook => 2,
        Role::Bishop => 3,
        Role::Knight => 4,
        Role::Pawn => 5,
    };
    if color == Color::White { white[i] } else { black[i] }
}

/// `White – Black` as the headers give them.
fn players(g: &GameReport) -> String {
    format!("{} – {}", header(g, "White").unwrap_or("?"), header(g, "Black").unwrap_or("?"))
}

fn header<'g>(g: &'g GameReport, k: &str) -> Option<&'g str> {
    g.headers.get(k).and_then(|v| v.as_str())
}

/// The findings an arbiter must see.
fn warnings(g: &GameReport) -> impl Iterator<Item = &FindingReport> {
    g.findings.iter().filter(|f| f.severity >= Severity::Warning)
}

/// Text from a sheet made safe in HTML: a header `<script>` is shown, never run.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}
