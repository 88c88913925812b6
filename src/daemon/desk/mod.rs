//! The arbiter's desk: the review queue as web pages, served over HTTP on
//! the daemon's runtime (`scoresheet watch`) or alone over the same folders
//! (`scoresheet desk`). The queue, a game's page (written beside read, the
//! board at each doubt, the alternatives as buttons), a decision previewed
//! and carried out: all the work is the daemon's (`decide`); this module
//! only reads requests and writes pages.
//!
//! Who may use it (`guard`): loopback by default; any other address only
//! with `desk.token`, which every request then carries. A request naming a
//! host the desk does not answer to (`desk.hosts`) is refused, GETs too.
//! Every form carries a token that a page of another site cannot know (the
//! double-submit cookie: a random `csrf` cookie this desk set, repeated in
//! the form), every text from a sheet is escaped, games are named by id (16 hex
//! digits, never a path), and request bodies are limited to 16 KiB.
//!
//! Beside it, `feed`: the rounds as a live broadcast polls them
//! (`/broadcast/`), public and read-only, so past the host check but never
//! the token's, on the desk's address and alone on `broadcast.listen`.

mod feed;
mod guard;
mod http;
mod queue;

use std::collections::BTreeMap;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Form, Path, Query, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tracing::info;

use super::DaemonConfig;
use super::decide::{self, DecideError};
use super::listing::Listing;
use super::outcome::ProcessConfig;
use crate::config::{Broadcast, Desk};
use crate::decision::{Action, Decision, DecisionError};
use crate::emit::page::{Controls, Words, desk_game, escape, head, players, url_escape};
use crate::emit::report::GameReport;
pub use feed::{BroadcastError, bind as bind_broadcast, serve as serve_broadcast};
use guard::{Hosts, cookie, random_token, same_secret, set_cookie, words};

/// Largest request body taken, in bytes: a decision's form is a few hundred.
const BODY_LIMIT: usize = 16 * 1024;

/// Why the desk cannot start.
#[derive(Debug, thiserror::Error)]
pub enum DeskError {
    #[error(
        "desk.listen is {0}, not a loopback address: set desk.token (16 or more characters), which every request then needs"
    )]
    NeedsToken(SocketAddr),
    #[error("desk.listen is {0}: not an address (or host name) and port, or the name is not known")]
    Address(String),
    #[error("the desk cannot listen on {addr}: {source}")]
    Bind { addr: SocketAddr, source: io::Error },
}

/// The desk's listening socket, bound as the config says: an address other
/// than loopback is refused without a token.
pub fn bind(desk: &Desk) -> Result<std::net::TcpListener, DeskError> {
    use std::net::ToSocketAddrs;
    // A host name (`localhost:8080`) is looked up: every address it names
    // must be loopback unless there is a token; the first is listened on.
    let unknown = || DeskError::Address(desk.listen.clone());
    let addrs: Vec<SocketAddr> = desk.listen.to_socket_addrs().map_err(|_| unknown())?.collect();
    let addr = *addrs.first().ok_or_else(unknown)?;
    if let Some(open) = addrs.iter().find(|a| !a.ip().is_loopback()).filter(|_| desk.token.is_none()) {
        return Err(DeskError::NeedsToken(*open));
    }
    let listener = std::net::TcpListener::bind(addr).map_err(|source| DeskError::Bind { addr, source })?;
    listener.set_nonblocking(true).map_err(|source| DeskError::Bind { addr, source })?;
    Ok(listener)
}

/// What every request is served with.
struct Served {
    cfg: ProcessConfig,
    token: Option<String>,
    language: Option<String>,
    /// The hosts a request may name.
    hosts: Hosts,
    /// The games of the lists, kept up to date from the records.
    listing: Listing,
    /// Drawn at start: the form tokens are signed with it, so a token set
    /// by any other page (another port of this host shares its cookies) is
    /// not one of this desk's.
    secret: String,
    /// Form tokens made so far: each one's number makes its nonce.
    tokens: std::sync::atomic::AtomicU64,
}

type Shared = Arc<Served>;

/// How often the desk's lists take in the games published since.
const LISTS_REFRESHED: std::time::Duration = std::time::Duration::from_secs(2);

/// Serves the desk on `listener` over the daemon's folders until `shutdown`
/// completes, and the broadcast feed beside it. The log lines `desk
/// listening` and `broadcast listening` give its address.
pub async fn serve(
    listener: std::net::TcpListener,
    desk: &Desk,
    broadcast: &Broadcast,
    daemon: &DaemonConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let addr = listener.local_addr()?;
    let listener = tokio::net::TcpListener::from_std(listener)?;
    // No secret, no desk: a form token made without one could be forged.
    let secret = random_token(32).map_err(|e| {
        io::Error::other(format!("the desk cannot draw its secret from the system's random source: {e}"))
    })?;
    let served = Arc::new(Served {
        cfg: super::process_config(daemon),
        token: desk.token.clone(),
        language: desk.language.clone(),
        hosts: Hosts::new(&desk.listen, addr, &desk.hosts),
        listing: Listing::default(),
        secret,
        tokens: std::sync::atomic::AtomicU64::new(0),
    });
    // The lists are built now, not at the arbiter's first page, and kept up
    // to date as games come: no look waits for the thousands a big drop
    // published since the last one.
    let fresh = served.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(LISTS_REFRESHED);
        loop {
            tick.tick().await;
            let s = fresh.clone();
            let _ = tokio::task::spawn_blocking(move || s.listing.games(&s.cfg).map(|_| ())).await;
        }
    });
    // The feed answers to the desk's names and to its own public ones, which
    // reach nothing else of the desk (421 there: not the desk's names).
    let names: Vec<String> = desk.hosts.iter().chain(&broadcast.hosts).cloned().collect();
    let feed = feed::on_desk(daemon, broadcast, Hosts::new(&desk.listen, addr, &names));
    info!(address = %format!("http://{addr}/"), "desk listening");
    info!(address = %format!("http://{addr}/broadcast/"), "broadcast listening");
    http::serve(listener, router(served).merge(feed), shutdown).await
}

fn router(served: Shared) -> Router {
    Router::new()
        .route("/", get(queue_page))
        .route("/game/{id}", get(game_page))
        .route("/game/{id}/preview", axum::routing::post(preview))
        .route("/game/{id}/decide", axum::routing::post(decide_game))
        .route("/arbiter", get(arbiter_page).post(arbiter_set))
        .fallback(not_found)
        .layer(middleware::from_fn_with_state(served.clone(), token_guard))
        .layer(middleware::from_fn_with_state(served.clone(), host_guard))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(served)
}

/// Every request names a host the desk answers to, in its `Host` header and
/// in its target where that is a whole URL; else 421, before anything else.
async fn host_guard(State(s): State<Shared>, req: Request, next: Next) -> Response {
    if s.hosts.allow_request(&req) {
        return next.run(req).await;
    }
    let w = words(s.language.as_deref(), None, req.headers());
    error_page(
        StatusCode::MISDIRECTED_REQUEST,
        w,
        "this desk does not answer to that host name: open it at the address its log gives (or list the name in desk.hosts)",
    )
}

/// With `desk.token`, every request carries it: in the cookie, or once as
/// `?token=` (which sets the cookie and sends the browser on without it).
async fn token_guard(State(s): State<Shared>, req: Request, next: Next) -> Response {
    let Some(token) = s.token.as_deref() else { return next.run(req).await };
    if cookie(req.headers(), "desk_token").is_some_and(|c| same_secret(&c, token)) {
        return next.run(req).await;
    }
    let query = req.uri().query().unwrap_or("");
    let pairs = query_pairs(query);
    if pairs.iter().any(|(k, v)| k == "token" && same_secret(v, token)) {
        let rest: Vec<String> =
            pairs.iter().filter(|(k, _)| k != "token").map(|(k, v)| format!("{k}={}", url_escape(v))).collect();
        let to = if rest.is_empty() {
            req.uri().path().to_string()
        } else {
            format!("{}?{}", req.uri().path(), rest.join("&"))
        };
        let mut r = see_other(&to);
        r.headers_mut().append(header::SET_COOKIE, set_cookie("desk_token", token));
        return r;
    }
    let w = words(s.language.as_deref(), None, req.headers());
    error_page(StatusCode::UNAUTHORIZED, w, "this desk needs its token: open the address given to you, with ?token=")
}

/// `k=v&…` decoded (`+` is a space).
fn query_pairs(q: &str) -> Vec<(String, String)> {
    q.split('&')
        .filter(|kv| !kv.is_empty())
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            (guard::unescape(&k.replace('+', " ")), guard::unescape(&v.replace('+', " ")))
        })
        .collect()
}

/// The form token of this browser, and the cookie to set when it had none
/// of this desk's (one from before a restart, or set by another page, is
/// replaced).
fn csrf_of(s: &Served, headers: &HeaderMap) -> (String, Option<HeaderValue>) {
    match cookie(headers, "csrf").filter(|c| guard::signed_by(&s.secret, c)) {
        Some(c) => (c, None),
        None => {
            let n = s.tokens.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let c = guard::signed_token(&s.secret, n);
            let set = set_cookie("csrf", &c);
            (c, Some(set))
        }
    }
}

/// Whether a form's token is this browser's and this desk's: the cookie's,
/// signed with this desk's secret, and the form posted from the desk's own
/// pages (its `Origin`, else its `Referer`, where the browser sends one).
fn csrf_ok(s: &Served, headers: &HeaderMap, form: &BTreeMap<String, String>) -> bool {
    let signed = match (cookie(headers, "csrf"), form.get("csrf")) {
        (Some(c), Some(f)) => guard::signed_by(&s.secret, &c) && same_secret(&c, f),
        _ => false,
    };
    signed && guard::same_origin(headers)
}

/// A whole page: head, the arbiter's bar, the body.
fn page(w: &Words, title: &str, arbiter: Option<&str>, csrf: &str, back: &str, body: &str) -> String {
    let mut out = String::with_capacity(body.len() + 2048);
    head(&mut out, title, w);
    out.push_str("<div class=\"bar\">");
    match arbiter {
        // The page asks for the name itself.
        Some("") => {}
        Some(name) => {
            let _ = std::fmt::Write::write_fmt(
                &mut out,
                format_args!("{}: <b id=\"arbiter-shown\">{}</b> · ", w.arbiter, escape(name)),
            );
        }
        None => arbiter_form(&mut out, w, csrf, back),
    }
    let _ = std::fmt::Write::write_fmt(&mut out, format_args!("<a href=\"/\">{}</a></div>", w.back));
    out.push_str(body);
    out.push_str("</body></html>\n");
    out
}

/// The form that gives the arbiter's name.
fn arbiter_form(out: &mut String, w: &Words, csrf: &str, back: &str) {
    let _ = std::fmt::Write::write_fmt(
        out,
        format_args!(
            "<form id=\"arbiter\" method=\"post\" action=\"/arbiter\">{} <label>{} <input name=\"name\" id=\"arbiter-name\" size=\"24\"></label>\
             <input type=\"hidden\" name=\"csrf\" value=\"{}\"><input type=\"hidden\" name=\"back\" value=\"{}\">\
             <button id=\"arbiter-go\" type=\"submit\">OK</button></form>",
            w.give_name,
            w.your_name,
            escape(csrf),
            escape(back)
        ),
    );
}

/// A page as a response, with the form token's cookie where it is new.
fn html(status: StatusCode, text: String, set: Option<HeaderValue>) -> Response {
    let mut r = (status, [(header::CONTENT_TYPE, "text/html; charset=utf-8")], text).into_response();
    let h = r.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert("x-frame-options", HeaderValue::from_static("DENY"));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; form-action 'self'",
        ),
    );
    if let Some(c) = set {
        h.append(header::SET_COOKIE, c);
    }
    r
}

fn error_page(status: StatusCode, w: &Words, message: &str) -> Response {
    let mut out = String::new();
    head(&mut out, "scoresheet", w);
    let _ = std::fmt::Write::write_fmt(
        &mut out,
        format_args!("<p id=\"error\">{}</p><p><a href=\"/\">{}</a></p></body></html>\n", escape(message), w.back),
    );
    html(status, out, None)
}

fn see_other(to: &str) -> Response {
    let mut r = StatusCode::SEE_OTHER.into_response();
    if let Ok(v) = HeaderValue::from_str(to) {
        r.headers_mut().insert(header::LOCATION, v);
    }
    r
}

/// A call into the daemon's side, off the runtime's threads (it reads files
/// and sheets).
async fn blocking<T: Send + 'static>(
    s: &Shared,
    f: impl FnOnce(&ProcessConfig) -> Result<T, DecideError> + Send + 'static,
) -> Result<T, DecideError> {
    let s = s.clone();
    tokio::task::spawn_blocking(move || f(&s.cfg))
        .await
        .unwrap_or_else(|e| Err(DecideError::Gone(format!("internal error: {e}"))))
}

/// A failure from the daemon's side as a page with its status.
fn failed(w: &Words, e: &DecideError) -> Response {
    let status = match e {
        DecideError::NoGame(_) => StatusCode::NOT_FOUND,
        DecideError::Stale => StatusCode::CONFLICT,
        DecideError::Decision(_) => StatusCode::UNPROCESSABLE_ENTITY,
        DecideError::Gone(_) => StatusCode::GONE,
        DecideError::File(_) => StatusCode::INTERNAL_SERVER_ERROR,
    };
    error_page(status, w, &e.to_string())
}

async fn not_found(State(s): State<Shared>, headers: HeaderMap) -> Response {
    let w = words(s.language.as_deref(), None, &headers);
    error_page(StatusCode::NOT_FOUND, w, "no such page")
}

async fn queue_page(
    State(s): State<Shared>,
    Query(q): Query<BTreeMap<String, String>>,
    uri: axum::http::Uri,
    headers: HeaderMap,
) -> Response {
    let w = words(s.language.as_deref(), q.get("lang").map(String::as_str), &headers);
    let (csrf, set) = csrf_of(&s, &headers);
    let review = s.cfg.folders.review.clone();
    let listed = {
        let s = s.clone();
        tokio::task::spawn_blocking(move || s.listing.games(&s.cfg).map_err(DecideError::from))
            .await
            .unwrap_or_else(|e| Err(DecideError::Gone(format!("internal error: {e}"))))
    };
    let games = match listed {
        Ok(g) => g,
        Err(e) => return failed(w, &e),
    };
    let body = queue::render(&games, &q, w, &review);
    let arbiter = cookie(&headers, "arbiter");
    // Giving a name comes back to this very list, its filters kept.
    let here = uri.path_and_query().map_or("/", |p| p.as_str());
    let back = if safe_back(here) { here } else { "/" };
    html(StatusCode::OK, page(w, w.queue, arbiter.as_deref(), &csrf, back, &body), set)
}

async fn game_page(
    State(s): State<Shared>,
    Path(id): Path<String>,
    Query(q): Query<BTreeMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    let w = words(s.language.as_deref(), q.get("lang").map(String::as_str), &headers);
    if !decide::is_id(&id) {
        return error_page(StatusCode::NOT_FOUND, w, "no such game");
    }
    let (csrf, set) = csrf_of(&s, &headers);
    let shown = match blocking(&s, {
        let id = id.clone();
        move |cfg| decide::show(cfg, &id)
    })
    .await
    {
        Ok(g) => g,
        Err(e) => return failed(w, &e),
    };
    let controls = Controls { id: &id, version: &shown.version, csrf: &csrf, fixed: "", preview: false };
    let mut body = desk_game(&shown.report, &shown.sheets.join(", "), w, &controls);
    result_form(&mut body, &shown.report, w, &controls);
    let arbiter = cookie(&headers, "arbiter");
    let back = format!("/game/{id}");
    html(StatusCode::OK, page(w, &players(&shown.report), arbiter.as_deref(), &csrf, &back, &body), set)
}

/// A form posted about game `id` refused: without this browser's form
/// token (403), or about no game (404).
fn refused(s: &Served, w: &Words, headers: &HeaderMap, form: &BTreeMap<String, String>, id: &str) -> Option<Response> {
    if !csrf_ok(s, headers, form) {
        return Some(error_page(StatusCode::FORBIDDEN, w, "the form's token is missing or wrong: open the page again"));
    }
    (!decide::is_id(id)).then(|| error_page(StatusCode::NOT_FOUND, w, "no such game"))
}

/// `46:Bd6,51:Qe2` as the moves of a decision (keys checked by it).
fn fixed_moves(text: &str) -> BTreeMap<String, String> {
    text.split(',')
        .filter_map(|kv| kv.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .filter(|(k, v)| !k.is_empty() && !v.is_empty())
        .collect()
}

fn moves_text(moves: &BTreeMap<String, String>) -> String {
    moves.iter().map(|(k, v)| format!("{k}:{v}")).collect::<Vec<_>>().join(",")
}

async fn preview(
    State(s): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Form(form): Form<BTreeMap<String, String>>,
) -> Response {
    let w = words(s.language.as_deref(), None, &headers);
    if let Some(refused) = refused(&s, w, &headers, &form, &id) {
        return refused;
    }
    let mut moves = fixed_moves(form.get("moves").map_or("", String::as_str));
    let (ply, mv) = (form.get("ply").map_or("", |p| p.trim()), form.get("move").map_or("", |m| m.trim()));
    let ply = match crate::decision::ply_of(ply) {
        Ok(p) => p,
        Err(e) => return failed(w, &DecideError::Decision(e)),
    };
    // A ply named again (46, or 23...) replaces its earlier move.
    moves.retain(|k, _| crate::decision::ply_of(k).ok() != Some(ply));
    moves.insert(ply.to_string(), mv.to_string());
    let arbiter = cookie(&headers, "arbiter").unwrap_or_else(|| "?".into());
    let decision = Decision::new(Action::Amend, moves.clone(), &arbiter);
    let version = form.get("version").cloned().unwrap_or_default();
    let shown = match blocking(&s, {
        let (id, version) = (id.clone(), version.clone());
        move |cfg| decide::preview(cfg, &id, &version, &decision)
    })
    .await
    {
        Ok(g) => g,
        Err(e) => return failed(w, &e),
    };
    let csrf = cookie(&headers, "csrf").unwrap_or_default();
    let fixed = moves_text(&moves);
    let controls = Controls { id: &id, version: &shown.version, csrf: &csrf, fixed: &fixed, preview: true };
    let body = format!(
        "<p id=\"message\">{}</p>{}",
        w.preview,
        desk_game(&shown.report, &shown.sheets.join(", "), w, &controls)
    );
    let arbiter = cookie(&headers, "arbiter");
    let back = format!("/game/{id}");
    html(StatusCode::OK, page(w, &players(&shown.report), arbiter.as_deref(), &csrf, &back, &body), None)
}

async fn decide_game(
    State(s): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Form(form): Form<BTreeMap<String, String>>,
) -> Response {
    let w = words(s.language.as_deref(), None, &headers);
    if let Some(refused) = refused(&s, w, &headers, &form, &id) {
        return refused;
    }
    // A decision made before the arbiter gave a name is kept: the name is
    // asked for on a page that posts the decision again with it.
    let named = form.get("name").map(|n| arbiter_name(n)).filter(|n| !n.is_empty());
    let Some(arbiter) = named.clone().or_else(|| cookie(&headers, "arbiter").filter(|a| !a.trim().is_empty())) else {
        let csrf = cookie(&headers, "csrf").unwrap_or_default();
        let body = name_then_decide(w, &id, &form);
        return html(StatusCode::OK, page(w, w.arbiter, Some(""), &csrf, "/", &body), None);
    };
    let action = match form.get("action").map(String::as_str) {
        Some("accept") => Action::Accept,
        // Confirming a preview the arbiter has seen accepts it whole.
        Some("amend") => Action::Accept,
        // The result alone: the moves' doubts, if any, stay.
        Some("result") => Action::Amend,
        Some("reject") => Action::Reject,
        _ => return error_page(StatusCode::UNPROCESSABLE_ENTITY, w, "no decision given (accept, amend or reject)"),
    };
    let text = |k: &str| form.get(k).map(|v| v.trim().to_string()).filter(|v| !v.is_empty());
    let decision = Decision {
        note: text("note"),
        reason: text("reason"),
        result: text("result"),
        ..Decision::new(action, fixed_moves(form.get("moves").map_or("", String::as_str)), &arbiter)
    };
    if decision.decision == Action::Reject && decision.reason.is_none() {
        return failed(w, &DecideError::Decision(DecisionError::NoReason));
    }
    let version = form.get("version").cloned().unwrap_or_default();
    let done = blocking(&s, {
        let id = id.clone();
        move |cfg| decide::decide(cfg, &id, Some(&version), &decision)
    })
    .await;
    let mut r = match done {
        Ok(_) => see_other(&format!("/?done={id}")),
        Err(e) => failed(w, &e),
    };
    if let Some(name) = named {
        r.headers_mut().append(header::SET_COOKIE, set_cookie("arbiter", &name));
    }
    r
}

/// One click per result, where the game has none, its result is in doubt,
/// or it waits in review for the arbiter: the arbiter gives it, and nothing
/// else of the game changes.
fn result_form(out: &mut String, report: &GameReport, w: &Words, c: &Controls) {
    let open = report.result == "*" || report.findings.iter().any(|f| f.about_result);
    if !open && report.status != crate::emit::report::Status::Review {
        return;
    }
    let _ = std::fmt::Write::write_fmt(
        out,
        format_args!(
            "<form id=\"result\" method=\"post\" action=\"/game/{}/decide\"><p>{}</p>\
             <input type=\"hidden\" name=\"csrf\" value=\"{}\"><input type=\"hidden\" name=\"version\" value=\"{}\">\
             <input type=\"hidden\" name=\"action\" value=\"result\">",
            escape(c.id),
            w.give_result,
            escape(c.csrf),
            escape(c.version)
        ),
    );
    for (value, label) in [("1-0", "1-0"), ("1/2-1/2", "½-½"), ("0-1", "0-1")] {
        let _ = std::fmt::Write::write_fmt(
            out,
            format_args!(
                "<button type=\"submit\" name=\"result\" value=\"{value}\" class=\"result\">{label}</button> "
            ),
        );
    }
    out.push_str("</form>");
}

/// The page that asks for the arbiter's name and then posts the decision
/// `form` made on game `id` with it, unchanged.
fn name_then_decide(w: &Words, id: &str, form: &BTreeMap<String, String>) -> String {
    let mut out = format!(
        "<form id=\"arbiter\" method=\"post\" action=\"/game/{}/decide\"><p>{}</p><label>{} \
         <input name=\"name\" id=\"arbiter-name\" size=\"24\" required></label>",
        escape(id),
        w.give_name,
        w.your_name
    );
    for (k, v) in form.iter().filter(|(k, _)| k.as_str() != "name") {
        let _ = std::fmt::Write::write_fmt(
            &mut out,
            format_args!("<input type=\"hidden\" name=\"{}\" value=\"{}\">", escape(k), escape(v)),
        );
    }
    out.push_str("<button id=\"arbiter-go\" type=\"submit\">OK</button></form>");
    out
}

/// An arbiter's name as given: trimmed, no control characters, 80 at most.
fn arbiter_name(given: &str) -> String {
    given.trim().chars().filter(|c| !c.is_control()).take(80).collect()
}

async fn arbiter_page(
    State(s): State<Shared>,
    Query(q): Query<BTreeMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    let w = words(s.language.as_deref(), q.get("lang").map(String::as_str), &headers);
    let (csrf, set) = csrf_of(&s, &headers);
    let back = q.get("back").map(|b| b.trim()).filter(|b| safe_back(b)).unwrap_or("/");
    let mut body = String::new();
    arbiter_form(&mut body, w, &csrf, back);
    html(StatusCode::OK, page(w, w.arbiter, None, &csrf, back, &body), set)
}

/// Where the name form sends the browser back: a path of this desk only,
/// one `/` then no second `/` or `\` (which a browser takes for another
/// site), and no space or control character (which a browser drops before
/// reading the rest: `/\t/evil.example` is `//evil.example` to it).
fn safe_back(b: &str) -> bool {
    let bad = |c: char| c.is_control() || c.is_whitespace() || c == '\\';
    b.strip_prefix('/').is_some_and(|rest| !rest.starts_with('/') && !b.contains(bad))
}

async fn arbiter_set(
    State(s): State<Shared>,
    headers: HeaderMap,
    Form(form): Form<BTreeMap<String, String>>,
) -> Response {
    let w = words(s.language.as_deref(), None, &headers);
    if !csrf_ok(&s, &headers, &form) {
        return error_page(StatusCode::FORBIDDEN, w, "the form's token is missing or wrong: open the page again");
    }
    let name = arbiter_name(form.get("name").map_or("", String::as_str));
    if name.is_empty() {
        return error_page(StatusCode::UNPROCESSABLE_ENTITY, w, "give a name: every decision records it");
    }
    let back = form.get("back").map(|b| b.trim()).filter(|b| safe_back(b)).unwrap_or("/");
    let mut r = see_other(back);
    r.headers_mut().append(header::SET_COOKIE, set_cookie("arbiter", &name));
    r
}
