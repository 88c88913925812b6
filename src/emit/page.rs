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
use crate::sheet::Entry;

/// The page of the games of file `file` (its games in review, or any).
///
/// ```
/// use scoresheet::convert::{convert, Options};
/// use scoresheet::emit::review_page;
/// let report = convert("board7.txt", b"White: <b>Ana</b>\n\n1.e4 e5 2.Cf3 ? 3.Ab5 a6", &Options::default());
/// let html = review_page("board7.txt", &report.games);
/// assert!(html.contains("<svg") && html.contains("&lt;b&gt;Ana"));
/// assert!(!html.contains("<b>Ana"));
/// ```
pub fn review_page(file: &str, games: &[GameReport]) -> String {
    let mut out = String::new();
    let title = games.first().map_or_else(|| file.to_string(), players);
    head(&mut out, &title, &EN);
    let _ = write!(out, "<p class=\"file\">{}</p>", escape(file));
    for (i, g) in games.iter().enumerate() {
        game_section(&mut out, g, i, &EN, None);
    }
    out.push_str("</body></html>\n");
    out
}

/// What the desk adds to a game's page: the forms that decide it, each
/// carrying the game's version (a decision on an older one is refused) and
/// the form token.
#[derive(Debug, Clone, Copy)]
pub struct Controls<'a> {
    /// The game's id in the desk's URLs.
    pub id: &'a str,
    pub version: &'a str,
    pub csrf: &'a str,
    /// The moves this page has fixed (`46:Bd6,51:Qe2`), carried on by its forms.
    pub fixed: &'a str,
    /// A preview of fixed moves: confirmed, or picked further.
    pub preview: bool,
}

/// The body of the desk's page of one game: its section with each doubt's
/// alternatives as buttons, then the decision forms and the move stepper.
pub fn desk_game(g: &GameReport, files: &str, words: &Words, controls: &Controls<'_>) -> String {
    let mut out = String::new();
    let _ = write!(out, "<p class=\"file\">{}</p>", escape(files));
    game_section(&mut out, g, 0, words, Some(controls));
    decision_forms(&mut out, words, controls);
    stepper(&mut out, g, words);
    out
}

/// The hidden fields every desk form carries.
fn hidden(out: &mut String, c: &Controls<'_>) {
    let _ = write!(
        out,
        "<input type=\"hidden\" name=\"version\" value=\"{}\"><input type=\"hidden\" name=\"csrf\" value=\"{}\">",
        escape(c.version),
        escape(c.csrf)
    );
    if !c.fixed.is_empty() {
        let _ = write!(out, "<input type=\"hidden\" name=\"moves\" value=\"{}\">", escape(c.fixed));
    }
}

/// Accept, amend by typing, reject; on a preview, confirm.
fn decision_forms(out: &mut String, w: &Words, c: &Controls<'_>) {
    let id = escape(c.id);
    out.push_str("<section class=\"decide\">");
    if c.preview {
        let _ = write!(out, "<form id=\"confirm\" method=\"post\" action=\"/game/{id}/decide\">");
        out.push_str("<input type=\"hidden\" name=\"action\" value=\"amend\">");
        hidden(out, c);
        let _ = write!(out, "<button id=\"confirm-go\" type=\"submit\">{}</button></form>", w.confirm);
    } else {
        let _ = write!(out, "<form id=\"accept\" method=\"post\" action=\"/game/{id}/decide\">");
        out.push_str("<input type=\"hidden\" name=\"action\" value=\"accept\">");
        hidden(out, c);
        let _ = write!(out, "<button id=\"accept-go\" type=\"submit\">{}</button></form>", w.accept);
    }
    let _ = write!(out, "<form id=\"amend\" method=\"post\" action=\"/game/{id}/preview\">");
    hidden(out, c);
    let _ = write!(
        out,
        "<label>{} <input name=\"ply\" id=\"amend-ply\" size=\"6\" placeholder=\"23...\"></label> \
         <label>{} <input name=\"move\" id=\"amend-move\" size=\"8\" placeholder=\"Bd6\"></label> \
         <button id=\"amend-go\" type=\"submit\">{}</button></form>",
        w.ply, w.the_move, w.amend
    );
    let _ = write!(out, "<form id=\"reject\" method=\"post\" action=\"/game/{id}/decide\">");
    out.push_str("<input type=\"hidden\" name=\"action\" value=\"reject\">");
    hidden(out, c);
    let _ = write!(
        out,
        "<label>{} <input name=\"reason\" id=\"reject-reason\" size=\"30\"></label> \
         <button id=\"reject-go\" type=\"submit\">{}</button></form></section>",
        w.reason, w.reject
    );
}

/// The move list stepped with ← and →: the board after each ply drawn by a
/// small inline script from the positions written into the page.
fn stepper(out: &mut String, g: &GameReport, w: &Words) {
    let moves = &g.moves;
    let boards: Vec<String> = positions(g).iter().map(board_fen).collect();
    let _ = write!(
        out,
        "<section id=\"stepper\" tabindex=\"0\" data-boards=\"{}\" data-moves=\"{}\"><h2>{}</h2>\
         <p>{}</p><div class=\"step-board\"></div><p class=\"step-move\"></p></section>",
        boards.join(" "),
        escape(&moves.join(" ")),
        w.step_title,
        w.step_help
    );
    out.push_str(STEPPER_SCRIPT);
}

/// The placement part of a FEN: ranks 8 to 1, `/` between.
fn board_fen(pos: &Chess) -> String {
    pos.board().to_string()
}

/// Draws the stepper's board; no network, no library.
const STEPPER_SCRIPT: &str = r#"<script>
(function(){
var s=document.getElementById('stepper');if(!s)return;
var boards=s.dataset.boards.split(' '),moves=s.dataset.moves?s.dataset.moves.split(' '):[],k=boards.length-1;
var g={K:'\u2654',Q:'\u2655',R:'\u2656',B:'\u2657',N:'\u2658',P:'\u2659',k:'\u265A',q:'\u265B',r:'\u265C',b:'\u265D',n:'\u265E',p:'\u265F'};
function draw(){var rows=boards[k].split('/'),h='<svg class="board" width="272" height="272" viewBox="0 0 272 272">';
for(var r=0;r<8;r++){var f=0;for(var i=0;i<rows[r].length;i++){var c=rows[r][i];if(c>='1'&&c<='8'){for(var j=0;j<+c;j++){h+=sq(f,r,'');f++;}}else{h+=sq(f,r,g[c]);f++;}}}
s.querySelector('.step-board').innerHTML=h+'</svg>';
var n=Math.ceil(k/2),m=k?(n+(k%2?'. ':'... ')+moves[k-1]):'';s.querySelector('.step-move').textContent=m;}
function sq(f,r,p){var x=f*32+16,y=r*32,l=(f+r)%2==0;return '<rect x="'+x+'" y="'+y+'" width="32" height="32" fill="'+(l?'#f0d9b5':'#b58863')+'"/>'+(p?'<text x="'+(x+16)+'" y="'+(y+26)+'" font-size="28" text-anchor="middle">'+p+'</text>':'');}
document.addEventListener('keydown',function(e){if(e.target.tagName=='INPUT')return;if(e.key=='ArrowLeft'&&k>0){k--;draw();}if(e.key=='ArrowRight'&&k<boards.length-1){k++;draw();}});
draw();})();
</script>"#;

/// One line of the index: the page's file name (a link beside the index),
/// the sheet it is of, and its games.
#[derive(Debug, Clone)]
pub struct Listed<'a> {
    pub page: String,
    pub file: String,
    pub games: Vec<&'a GameReport>,
}

/// A value as a URL's path segment or query value: percent-encoded but for
/// letters, digits and `-_.~` (`mesa #5.review.html` is `mesa%20%235.review.html`).
pub(crate) fn url_escape(v: &str) -> String {
    percent_encoding::utf8_percent_encode(v, URL_KEPT).to_string()
}

/// What [`url_escape`] leaves as it is: letters, digits and `-_.~` (RFC 3986's
/// unreserved characters), safe in a query, a path segment and a cookie.
const URL_KEPT: &percent_encoding::AsciiSet =
    &percent_encoding::NON_ALPHANUMERIC.remove(b'-').remove(b'_').remove(b'.').remove(b'~');

/// A percent-encoded value decoded (bytes that are not UTF-8 replaced).
#[cfg(feature = "desk")]
pub(crate) fn url_unescape(v: &str) -> String {
    percent_encoding::percent_decode_str(v).decode_utf8_lossy().into_owned()
}

/// The index of the review pages of a run.
pub fn index_page(listed: &[Listed<'_>]) -> String {
    let mut out = String::new();
    head(&mut out, "Games for review", &EN);
    let _ = write!(
        out,
        "<h1>Games for review</h1><p>{} {}</p><table><tr><th>sheet</th><th>game</th><th>round</th><th>findings</th></tr>",
        listed.len(),
        if listed.len() == 1 { "file" } else { "files" }
    );
    for l in listed {
        for g in &l.games {
            let round = header(g, "Round").unwrap_or("?");
            let codes: Vec<&str> = warnings(g).map(|f| f.code).collect();
            let _ = write!(
                out,
                "<tr><td><a href=\"{}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape(&url_escape(&l.page)),
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
pub(crate) fn head(out: &mut String, title: &str, words: &Words) {
    let _ = write!(
        out,
        "<!DOCTYPE html><html lang=\"{}\"><head><meta charset=\"utf-8\"><title>{}</title><style>{STYLE}</style></head><body>",
        words.lang,
        escape(title)
    );
}

const STYLE: &str = "body{font-family:sans-serif;max-width:60em;margin:1em auto;padding:0 1em}\
table{border-collapse:collapse}td,th{padding:.15em .5em;text-align:left;vertical-align:top}\
.moves td{font-family:monospace}td.doubt{background:#fde68a}td.repaired{background:#dbeafe}\
.finding{margin:.6em 0;padding:.4em .6em;border-left:4px solid #999}.warning{border-color:#d97706}\
.error{border-color:#dc2626}.alt{display:inline-block;border:1px solid #555;border-radius:3px;\
padding:0 .4em;margin:0 .2em}.file{color:#555}svg{margin:.4em 0}.rule{color:#444;font-size:.9em}\
form{margin:.4em 0}.decide{border-top:1px solid #999;margin-top:1em}button.alt{font-family:monospace;margin:0 .2em}\
button.chosen{font-weight:bold}#error{color:#b91c1c;font-weight:bold}#message{background:#dcfce7;padding:.4em}\
.bar{background:#eee;padding:.3em .6em}td.differ{background:#fecaca}td.missing{background:#e5e7eb;color:#555}\
.copies tr.b td{border-bottom:1px solid #ddd}.copies th .sheet{font-family:monospace}.copies-note{font-size:.9em;color:#444}";

/// One game: headers, findings, moves, and a board at each doubt (with the
/// desk's buttons where `controls` are given).
fn game_section(out: &mut String, g: &GameReport, index: usize, w: &Words, controls: Option<&Controls<'_>>) {
    let status = match g.status {
        Status::Validated => w.validated,
        Status::Review => w.review,
        Status::Rejected => w.rejected,
    };
    let _ = write!(out, "<section id=\"game-{}\"><h1>{}</h1><p>{}</p><table>", index + 1, escape(&players(g)), status);
    for (k, v) in &g.headers {
        let v = v.as_str().unwrap_or_default();
        let _ = write!(out, "<tr><th>{}</th><td>{}</td></tr>", escape(k), escape(v));
    }
    out.push_str("</table>");
    let positions = positions(g);
    for f in &g.findings {
        finding(out, f, &positions, &g.moves, w, controls);
    }
    moves_table(out, g, w);
    out.push_str("</section>");
}

/// A finding in plain words, with the board before its move and the
/// alternatives where it is a doubt.
fn finding(
    out: &mut String,
    f: &FindingReport,
    positions: &[Chess],
    moves: &[String],
    w: &Words,
    controls: Option<&Controls<'_>>,
) {
    let class = match f.severity {
        Severity::Info => "finding",
        Severity::Warning => "finding warning",
        Severity::Error => "finding error",
    };
    let _ = write!(out, "<div class=\"{class}\"><b>{}</b> ({:?}): {}", escape(f.code), f.severity, escape(&f.message));
    if let Some(rule) = rule(f.code, w) {
        let _ = write!(out, "<div class=\"rule\">{rule}</div>");
    }
    let doubt = !f.alternatives.is_empty() || f.code == "copies-disagree";
    if let Some(k) = f.ply.map(|p| p as usize).filter(|&p| doubt && p >= 1 && p <= positions.len()) {
        let _ = write!(out, "<div class=\"doubt\" data-ply=\"{k}\">");
        out.push_str(&board_svg(&positions[k - 1]));
        let chosen = moves.get(k - 1).map_or("", String::as_str);
        let written = escape(f.written.as_deref().unwrap_or(""));
        let _ = write!(out, "<p>{} <code>{written}</code>; {} ", w.written, w.read);
        match controls {
            Some(c) => pick_form(out, c, k, chosen, &f.alternatives, w),
            None => {
                let _ = write!(out, "<span class=\"alt\">{}</span>", escape(chosen));
                for a in f.alternatives.iter().filter(|a| a.as_str() != chosen) {
                    let _ = write!(out, " {} <span class=\"alt\">{}</span>", w.or, escape(a));
                }
            }
        }
        if let Some(m) = f.margin {
            let _ = write!(out, " — {} {}", w.the_reading_is, likelier(m, w));
        }
        out.push_str("</p></div>");
    }
    out.push_str("</div>");
}

/// The desk's buttons at a doubt: the move read (marked) and each
/// alternative; a click shows the game read again with that move.
fn pick_form(out: &mut String, c: &Controls<'_>, ply: usize, chosen: &str, alternatives: &[String], w: &Words) {
    let _ = write!(out, "<form class=\"pick\" method=\"post\" action=\"/game/{}/preview\">", escape(c.id));
    let _ = write!(out, "<input type=\"hidden\" name=\"ply\" value=\"{ply}\">");
    hidden(out, c);
    let _ = write!(
        out,
        "<button class=\"alt chosen\" name=\"move\" value=\"{0}\" title=\"{1}\">{0}</button>",
        escape(chosen),
        w.as_read
    );
    for a in alternatives.iter().filter(|a| a.as_str() != chosen) {
        let _ = write!(out, "<button class=\"alt\" name=\"move\" value=\"{0}\">{0}</button>", escape(a));
    }
    out.push_str("</form>");
}

/// How much likelier a reading is than the next, in words.
fn likelier(margin: f32, w: &Words) -> &'static str {
    match margin {
        m if m >= 6.0 => w.much_likelier,
        m if m >= 3.0 => w.likelier,
        m if m >= 1.0 => w.a_little_likelier,
        _ => w.about_as_likely,
    }
}

/// What the arbiter should check for each finding, naming the FIDE Law of
/// Chess it bears on where there is one, by the finding's code: in English.
/// Each language's pages have their table (`Words::rules`), listing the same
/// codes in the same order.
const RULES_EN: &[(&str, &str)] = &[
    (
        "illegal-move",
        "Law 7.5: no legal move reads this entry. Check the other copy or ask the players before deciding the moves after it.",
    ),
    (
        "non-algebraic-notation",
        "Law 8.1.1 and Appendix C: moves are recorded in algebraic notation. Check what the entry stands for.",
    ),
    (
        "illegible-entry",
        "Law 8.1.1: each move is recorded legibly. Pick the move the position and the other copy allow.",
    ),
    ("missing-move", "Law 8.1.1 (and 8.4 in time trouble): a move was not written. Check the other copy."),
    (
        "extra-entry",
        "An entry that is no move of the game (written twice, a stray mark). Check it is not a move the game lacks.",
    ),
    (
        "typo-repaired",
        "A slip of the pen read as the only move that fits. Check it if the game's result depends on it.",
    ),
    ("ambiguous-repair", "Several moves fit the entry. Pick the one that was played (the other copy, the players)."),
    ("moves-after-end", "Laws 5 and 9: moves written after the game ended. Check the result and the last moves."),
    ("check-mark-mismatch", "A check sign that does not fit the move. Check the moves around it."),
    ("numbering-error", "The move numbers skip or repeat. Check that no move is missing or written twice."),
    ("language-inferred", "The piece letters' language was inferred. Check the letters if a move looks odd."),
    ("unknown-language", "The sheet names a language not known. Check the piece letters."),
    (
        "result-mismatch",
        "Law 8.7: the players sign the result. The result written does not fit the final position: check it.",
    ),
    (
        "result-missing",
        "Law 8.7: the players record the result and sign. None is written and the game is not over on the board: establish the result.",
    ),
    (
        "incomplete-record",
        "Laws 8.1 and 8.4: this copy lacks moves the other has. Only a player with less than five minutes may stop recording.",
    ),
    (
        "set-up-position",
        "The sheet gives a starting position that cannot be used (a FEN that is no legal position, Chess960 without its FEN). No move was read: establish the position and enter the game.",
    ),
    ("duplicate-board", "Two games for one board of the round. Check which sheet is that board's game."),
    ("score-printed-twice", "The text prints the game's first moves twice; they were read once, as this game."),
    ("moves-in-note", "The last moves were read from a note below the score. Check that the game went on so."),
    (
        "game-not-read",
        "A game of the file could not be read at all (too long, or not text). Enter it by hand from the sheet.",
    ),
    ("encoding-guessed", "The file's characters were guessed. Check the players' names."),
    ("headers-dropped", "Headers that could not be kept. Check the players, round and board."),
    ("search-budget", "The reading stopped at its budget of work. Check the moves from where it stopped."),
    (
        "pairing-mismatch",
        "The sheet's players or board differ from the pairings. Check who played whom on which board.",
    ),
    (
        "pairing-result-mismatch",
        "The result differs from the pairings' result. Check it on the sheet and in the pairing program.",
    ),
    ("colours-reversed", "White and Black are the other way round from the pairings. Check the sheet's header."),
    (
        "copies-disagree",
        "Law 8.1: both players record the game, and their copies differ here. Decide which move was played.",
    ),
    ("third-copy", "A third sheet for a game read from two copies. Check which sheets are of this game."),
    (
        "two-games-one-board",
        "Two sheets given as one game's copies hold two games. Check the names, round and board on each sheet.",
    ),
    ("arbiter-decision", "An arbiter decided this move. Nothing to check unless the decision is disputed."),
];

/// [`RULES_EN`] in Spanish.
const RULES_ES: &[(&str, &str)] = &[
    (
        "illegal-move",
        "Art. 7.5: ninguna jugada legal se lee en esta casilla. Compruebe la otra copia o pregunte a los jugadores antes de decidir las jugadas siguientes.",
    ),
    (
        "non-algebraic-notation",
        "Art. 8.1.1 y Apéndice C: las jugadas se anotan en notación algebraica. Compruebe qué quiere decir la casilla.",
    ),
    (
        "illegible-entry",
        "Art. 8.1.1: cada jugada se anota de forma legible. Elija la jugada que permiten la posición y la otra copia.",
    ),
    ("missing-move", "Art. 8.1.1 (y 8.4 en apuros de tiempo): una jugada no se anotó. Compruebe la otra copia."),
    (
        "extra-entry",
        "Una casilla que no es jugada de la partida (repetida, una marca suelta). Compruebe que no falta esa jugada.",
    ),
    (
        "typo-repaired",
        "Un error de escritura leído como la única jugada que encaja. Compruébelo si el resultado depende de ello.",
    ),
    ("ambiguous-repair", "Varias jugadas encajan en la casilla. Elija la que se jugó (la otra copia, los jugadores)."),
    (
        "moves-after-end",
        "Arts. 5 y 9: jugadas anotadas tras el final de la partida. Compruebe el resultado y las últimas jugadas.",
    ),
    ("check-mark-mismatch", "Un signo de jaque que no corresponde a la jugada. Compruebe las jugadas de alrededor."),
    ("numbering-error", "Los números de jugada saltan o se repiten. Compruebe que no falta ni sobra ninguna jugada."),
    ("language-inferred", "El idioma de las piezas se dedujo. Compruebe las letras si una jugada parece rara."),
    ("unknown-language", "La planilla nombra un idioma desconocido. Compruebe las letras de las piezas."),
    (
        "result-mismatch",
        "Art. 8.7: los jugadores firman el resultado. El resultado anotado no encaja con la posición final: compruébelo.",
    ),
    (
        "result-missing",
        "Art. 8.7: los jugadores anotan el resultado y firman. No hay resultado anotado y la partida no ha terminado en el tablero: establezca el resultado.",
    ),
    (
        "incomplete-record",
        "Arts. 8.1 y 8.4: a esta copia le faltan jugadas que la otra tiene. Solo un jugador con menos de cinco minutos puede dejar de anotar.",
    ),
    (
        "set-up-position",
        "La planilla da una posición de partida que no se puede usar (un FEN que no es una posición legal, Chess960 sin su FEN). No se leyó ninguna jugada: establezca la posición e introduzca la partida.",
    ),
    ("duplicate-board", "Dos partidas para un mismo tablero de la ronda. Compruebe qué planilla es la de ese tablero."),
    (
        "score-printed-twice",
        "El texto imprime dos veces las primeras jugadas de la partida; se leyeron una vez, como esta partida.",
    ),
    (
        "moves-in-note",
        "Las últimas jugadas se leyeron de una nota bajo la anotación. Compruebe que la partida siguió así.",
    ),
    (
        "game-not-read",
        "Una partida del archivo no se pudo leer (demasiado larga, o no es texto). Introdúzcala a mano desde la planilla.",
    ),
    ("encoding-guessed", "Los caracteres del archivo se dedujeron. Compruebe los nombres de los jugadores."),
    ("headers-dropped", "Cabeceras que no se pudieron conservar. Compruebe jugadores, ronda y tablero."),
    ("search-budget", "La lectura se detuvo al agotar su trabajo. Compruebe las jugadas desde donde se detuvo."),
    (
        "pairing-mismatch",
        "Los jugadores o el tablero difieren del emparejamiento. Compruebe quién jugó contra quién y en qué tablero.",
    ),
    (
        "pairing-result-mismatch",
        "El resultado difiere del del emparejamiento. Compruébelo en la planilla y en el programa de emparejamientos.",
    ),
    (
        "colours-reversed",
        "Blancas y negras están al revés que en el emparejamiento. Compruebe la cabecera de la planilla.",
    ),
    (
        "copies-disagree",
        "Art. 8.1: ambos jugadores anotan la partida y sus copias difieren aquí. Decida qué jugada se hizo.",
    ),
    (
        "third-copy",
        "Una tercera planilla de una partida leída de dos copias. Compruebe qué planillas son de esta partida.",
    ),
    (
        "two-games-one-board",
        "Dos planillas dadas como copias de una partida tienen dos partidas. Compruebe nombres, ronda y tablero.",
    ),
    ("arbiter-decision", "Un árbitro decidió esta jugada. Nada que comprobar salvo que se discuta la decisión."),
];

/// What the arbiter should check for a finding `code`, in `w`'s language.
fn rule(code: &str, w: &Words) -> Option<&'static str> {
    w.rules.iter().find(|(c, _)| *c == code).map(|(_, r)| *r)
}

/// The class of the cell of ply `ply` read: a doubt, a repair, or none.
fn mark(g: &GameReport, ply: usize) -> &'static str {
    let at = |f: &&FindingReport| f.ply == Some(ply as u32);
    if g.findings.iter().filter(at).any(|f| f.severity >= Severity::Warning) {
        " class=\"doubt\""
    } else if g.findings.iter().any(|f| at(&f)) {
        " class=\"repaired\""
    } else {
        ""
    }
}

/// An entry as written, with where it is in its file on hover.
fn entry_text(e: &Entry, w: &Words) -> String {
    format!("<span title=\"{} {}, {} {}\">{}</span>", w.line, e.line, w.column, e.col, escape(&e.text))
}

/// The moves as written beside the moves as read, numbered, the plies of
/// findings marked (a doubt, or a repair); a game read from two copies has
/// both copies' entries (`copies_table`).
fn moves_table(out: &mut String, g: &GameReport, w: &Words) {
    if let Some(copies) = copies(g) {
        copies_table(out, g, &copies, w);
        return;
    }
    let mark = |ply: usize| mark(g, ply);
    let _ = write!(
        out,
        "<table class=\"moves\" id=\"moves\"><tr><th></th><th>{0}</th><th>{2}</th><th>{1}</th><th>{2}</th></tr>",
        w.white_written, w.black_written, w.read
    );
    // Numbered from the start's move number; a game Black begins leaves
    // White's first cells empty. An entry no move was read from has a row
    // of its own, where it was written.
    let before = g.start().first_ply() as usize - 1;
    let mut row_open = false;
    let mut unread = g.unread.iter().peekable();
    for k in 0..=g.moves.len() {
        while let Some((_, e)) = unread.next_if(|(at, _)| *at <= k) {
            if std::mem::take(&mut row_open) {
                out.push_str("</tr>");
            }
            let _ = write!(
                out,
                "<tr class=\"unread\"><td></td><td colspan=\"4\">{} <i>{}</i></td></tr>",
                entry_text(e, w),
                w.not_read
            );
        }
        let Some(m) = g.moves.get(k) else { break };
        let (ply, numbered) = (k + 1, k + 1 + before);
        if numbered % 2 == 1 || !row_open {
            if std::mem::take(&mut row_open) {
                out.push_str("</tr>");
            }
            let _ = write!(out, "<tr><td>{}.</td>", numbered.div_ceil(2));
            if numbered % 2 == 0 {
                out.push_str("<td></td><td></td>");
            }
            row_open = true;
        }
        let written = match g.written.get(k).and_then(Option::as_ref) {
            Some(e) => entry_text(e, w),
            None => format!("<i>{}</i>", w.not_written),
        };
        let _ = write!(out, "<td{0}>{written}</td><td{0}>{1}</td>", mark(ply), escape(m));
    }
    if row_open {
        out.push_str("</tr>");
    }
    let _ = write!(out, "</table><p>{}</p>", escape(&g.result));
}

/// One copy of a game read from two: its file, and its entries as the
/// report has them.
struct Copy<'g> {
    file: &'g str,
    written: &'g [Option<Entry>],
    unread: &'g [(usize, Entry)],
}

impl Copy<'_> {
    /// The last part of its file's path, as a heading shows it.
    fn short(&self) -> &str {
        self.file.rsplit(['/', '\\']).next().unwrap_or(self.file)
    }

    /// The first and last lines of its entries.
    fn lines(&self) -> Option<(usize, usize)> {
        let lines = self.written.iter().flatten().chain(self.unread.iter().map(|(_, e)| e)).map(|e| e.line);
        lines.fold(None, |r, l| Some(r.map_or((l, l), |(a, b): (usize, usize)| (a.min(l), b.max(l)))))
    }
}

/// The two copies of a game read from two, in the order of their files'
/// names (of their lines, both in one file), or `None` for a game of one.
fn copies(g: &GameReport) -> Option<[Copy<'_>; 2]> {
    if g.other_written.is_empty() {
        return None;
    }
    let (sheets, base) = (g.sheets.as_ref()?, g.lines_in.as_deref()?);
    let other = if sheets[0] == base { &sheets[1] } else { &sheets[0] };
    let mut copies = [
        Copy { file: base, written: &g.written, unread: &g.unread },
        Copy { file: other, written: &g.other_written, unread: &g.other_unread },
    ];
    let key = |c: &Copy<'_>| (c.short().to_string(), c.lines());
    if key(&copies[1]) < key(&copies[0]) {
        copies.swap(0, 1);
    }
    Some(copies)
}

/// A game read from two copies: one row a move, each copy's entry as
/// written beside the move read, where the copies write it differently (or
/// one does not write it) marked. Each heading names its copy's file.
fn copies_table(out: &mut String, g: &GameReport, copies: &[Copy<'_>; 2], w: &Words) {
    let _ = write!(out, "<p class=\"copies-note\">{}</p>", w.copies_note);
    out.push_str("<table class=\"moves copies\" id=\"moves\"><tr><th></th>");
    let one_file = copies[0].short() == copies[1].short();
    for (i, c) in copies.iter().enumerate() {
        let lines = match c.lines() {
            Some((a, b)) if one_file => format!(", {} {a}–{b}", w.lines),
            _ => String::new(),
        };
        let _ = write!(
            out,
            "<th class=\"copy\" id=\"copy-{}\" title=\"{}\">{} <span class=\"sheet\">{}</span>{lines}</th>",
            i + 1,
            escape(c.file),
            w.written_in,
            escape(c.short())
        );
    }
    let _ = write!(out, "<th>{}</th></tr>", w.read);
    let before = g.start().first_ply() as usize - 1;
    let mut unread = copies.each_ref().map(|c| c.unread.iter().peekable());
    for k in 0..=g.moves.len() {
        // An entry no move was read from, in its copy's column, where it was written.
        for (i, u) in unread.iter_mut().enumerate() {
            while let Some((_, e)) = u.next_if(|(at, _)| *at <= k) {
                let cell = format!("<td>{} <i>{}</i></td>", entry_text(e, w), w.not_read);
                let [a, b] = if i == 0 { [cell, "<td></td>".into()] } else { ["<td></td>".into(), cell] };
                let _ = write!(out, "<tr class=\"unread\"><td></td>{a}{b}<td></td></tr>");
            }
        }
        let Some(m) = g.moves.get(k) else { break };
        let numbered = k + 1 + before;
        let (label, side) = if numbered % 2 == 1 { (".", "w") } else { ("...", "b") };
        let _ = write!(out, "<tr class=\"{side}\"><td>{}{label}</td>", numbered.div_ceil(2));
        let entries = copies.each_ref().map(|c| c.written.get(k).and_then(Option::as_ref));
        let differ = matches!(entries, [Some(a), Some(b)] if a.text.trim() != b.text.trim());
        for e in entries {
            let _ = match e {
                Some(e) if differ => {
                    write!(out, "<td class=\"differ\" title=\"{}\">{}</td>", w.copies_differ, entry_text(e, w))
                }
                Some(e) => write!(out, "<td>{}</td>", entry_text(e, w)),
                None => write!(out, "<td class=\"missing\"><i>{}</i></td>", w.not_written),
            };
        }
        let _ = write!(out, "<td{}>{}</td></tr>", mark(g, k + 1), escape(m));
    }
    let _ = write!(out, "</table><p>{}</p>", escape(&g.result));
}

/// The position before each move of a game (and after the last), from its start.
fn positions(g: &GameReport) -> Vec<Chess> {
    let mut pos = g.start().position;
    let mut out = vec![pos.clone()];
    for m in &g.moves {
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
        "<svg class=\"board\" width=\"{0}\" height=\"{0}\" viewBox=\"0 0 {0} {0}\" role=\"img\" aria-label=\"board\">",
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

/// The words of the pages, in one language.
#[derive(Debug)]
pub struct Words {
    /// The HTML `lang`.
    pub lang: &'static str,
    pub validated: &'static str,
    pub review: &'static str,
    pub rejected: &'static str,
    pub written: &'static str,
    pub read: &'static str,
    pub or: &'static str,
    pub as_read: &'static str,
    pub the_reading_is: &'static str,
    pub much_likelier: &'static str,
    pub likelier: &'static str,
    pub a_little_likelier: &'static str,
    pub about_as_likely: &'static str,
    pub white_written: &'static str,
    pub black_written: &'static str,
    pub not_written: &'static str,
    /// A column of a copy's entries, before its file's name.
    pub written_in: &'static str,
    pub lines: &'static str,
    /// Above the moves of a game read from two copies.
    pub copies_note: &'static str,
    /// A cell where the two copies write a move differently.
    pub copies_differ: &'static str,
    pub line: &'static str,
    pub column: &'static str,
    pub accept: &'static str,
    pub amend: &'static str,
    pub confirm: &'static str,
    pub reject: &'static str,
    pub reason: &'static str,
    pub ply: &'static str,
    pub the_move: &'static str,
    pub step_title: &'static str,
    pub step_help: &'static str,
    pub queue: &'static str,
    pub games_waiting: &'static str,
    pub round: &'static str,
    pub board: &'static str,
    pub game: &'static str,
    pub findings: &'static str,
    pub sheets: &'static str,
    pub boards_without_sheet: &'static str,
    pub rounds: &'static str,
    pub all: &'static str,
    pub show: &'static str,
    pub arbiter: &'static str,
    pub your_name: &'static str,
    pub give_name: &'static str,
    pub give_result: &'static str,
    /// The desk's lists: to decide, waiting for the other copy, published
    /// with notices, published, rejected.
    pub lists: [&'static str; 5],
    pub decided: &'static str,
    pub preview: &'static str,
    pub back: &'static str,
    /// An entry of the sheet that no move was read from.
    pub not_read: &'static str,
    pub page: &'static str,
    pub previous: &'static str,
    pub next: &'static str,
    /// What the arbiter should check for a finding, by its code.
    pub rules: &'static [(&'static str, &'static str)],
}

/// The pages in English.
pub const EN: Words = Words {
    lang: "en",
    validated: "validated",
    review: "review: an arbiter must look",
    rejected: "rejected: nothing usable was read",
    written: "written",
    read: "read",
    or: "or",
    as_read: "as read",
    the_reading_is: "the reading is",
    much_likelier: "much likelier",
    likelier: "likelier",
    a_little_likelier: "a little likelier",
    about_as_likely: "about as likely",
    white_written: "White written",
    black_written: "Black written",
    not_written: "not written",
    written_in: "written in",
    lines: "lines",
    copies_note: "Both players' copies as written, beside the move read. Red: the two copies write the move differently; grey: a copy does not write it.",
    copies_differ: "the two copies differ",
    line: "line",
    column: "column",
    accept: "Accept the game as read",
    amend: "Read with this move",
    confirm: "Confirm this reading",
    reject: "Reject the game",
    reason: "Reason",
    ply: "Move (46, 23. or 23...)",
    the_move: "is",
    step_title: "Moves",
    step_help: "← and → step through the game.",
    queue: "Review queue",
    games_waiting: "games",
    round: "round",
    board: "board",
    game: "game",
    findings: "findings",
    sheets: "sheets",
    boards_without_sheet: "boards without a sheet",
    rounds: "Rounds",
    all: "all",
    show: "Show",
    arbiter: "Arbiter",
    your_name: "Your name",
    give_name: "Give your name once: every decision records it.",
    give_result: "The result, as the arbiter establishes it:",
    lists: ["to decide", "waiting for the other copy", "notices", "published", "rejected"],
    decided: "decided",
    preview: "The game read again with the moves fixed: confirm, or pick again.",
    back: "Back to the queue",
    not_read: "not read as a move",
    page: "page",
    previous: "previous",
    next: "next",
    rules: RULES_EN,
};

/// The pages in Spanish.
pub const ES: Words = Words {
    lang: "es",
    validated: "validada",
    review: "revisión: un árbitro debe mirarla",
    rejected: "rechazada: no se leyó nada utilizable",
    written: "escrito",
    read: "leído",
    or: "o",
    as_read: "como se leyó",
    the_reading_is: "la lectura es",
    much_likelier: "mucho más probable",
    likelier: "más probable",
    a_little_likelier: "algo más probable",
    about_as_likely: "casi igual de probable",
    white_written: "Blancas escrito",
    black_written: "Negras escrito",
    not_written: "no escrita",
    written_in: "escrito en",
    lines: "líneas",
    copies_note: "Las copias de los dos jugadores tal como están escritas, junto a la jugada leída. En rojo: las dos copias escriben la jugada de otra forma; en gris: una copia no la escribe.",
    copies_differ: "las dos copias difieren",
    line: "línea",
    column: "columna",
    accept: "Aceptar la partida como se leyó",
    amend: "Leer con esta jugada",
    confirm: "Confirmar esta lectura",
    reject: "Rechazar la partida",
    reason: "Motivo",
    ply: "Jugada (46, 23. o 23...)",
    the_move: "es",
    step_title: "Jugadas",
    step_help: "← y → recorren la partida.",
    queue: "Partidas por revisar",
    games_waiting: "partidas",
    round: "ronda",
    board: "tablero",
    game: "partida",
    findings: "hallazgos",
    sheets: "planillas",
    boards_without_sheet: "tableros sin planilla",
    rounds: "Rondas",
    all: "todas",
    show: "Mostrar",
    arbiter: "Árbitro",
    your_name: "Su nombre",
    give_name: "Indique su nombre una vez: cada decisión lo registra.",
    give_result: "El resultado, según lo establece el árbitro:",
    lists: ["por decidir", "esperando la otra copia", "avisos", "publicadas", "rechazadas"],
    decided: "decidida",
    preview: "La partida leída de nuevo con las jugadas fijadas: confirme, o elija otra vez.",
    back: "Volver a la lista",
    not_read: "no leída como jugada",
    page: "página",
    previous: "anterior",
    next: "siguiente",
    rules: RULES_ES,
};

/// `White – Black` as the headers give them.
pub(crate) fn players(g: &GameReport) -> String {
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
pub(crate) fn escape(s: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_has_a_rule_for_the_same_findings() {
        let codes = |w: &Words| w.rules.iter().map(|(c, _)| *c).collect::<Vec<_>>();
        assert_eq!(codes(&EN), codes(&ES));
        for w in [&EN, &ES] {
            assert!(w.rules.iter().all(|(_, r)| !r.trim().is_empty()), "{}: a rule says nothing", w.lang);
        }
        assert!(rule("copies-disagree", &ES).is_some_and(|r| r.starts_with("Art. 8.1: ambos jugadores")));
        assert!(rule("draw-offer", &EN).is_none());
    }
}
