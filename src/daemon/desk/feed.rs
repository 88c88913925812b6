//! The rounds as a live broadcast polls them, over HTTP:
//! `GET /broadcast/<event>/round-<n>.pgn` (the feed [`broadcast::feed`]
//! builds) and `GET /broadcast/`, the list of the feeds. Read-only and
//! public: no token, no cookie, nothing of review/. Served on the desk's
//! address (past the host check, never the token's) and alone on
//! `broadcast.listen`.
//!
//! A broadcast polls every few seconds, several viewers' servers at once:
//! the body built is kept with the identity (size, modification time,
//! inode) of its inputs, the round file and the kept TRF, so a poll that
//! finds neither changed costs two `stat`s. `ETag` (a digest of the body)
//! and `Last-Modified` answer `If-None-Match` and `If-Modified-Since` with
//! 304.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tracing::info;

use super::super::DaemonConfig;
use super::super::broadcast;
use super::super::names::{folder, part};
use super::super::pairings::Pairings;
use super::guard::Hosts;
use crate::config::Broadcast;
use crate::emit::page::escape;

/// Why the feed cannot be served on `broadcast.listen`.
#[derive(Debug, thiserror::Error)]
pub enum BroadcastError {
    #[error("broadcast.listen is {0}: not an address (or host name) and port, or the name is not known")]
    Address(String),
    #[error("the broadcast feed cannot listen on {addr}: {source}")]
    Bind { addr: SocketAddr, source: io::Error },
}

/// The feed's own socket on `listen`. Any address is allowed, loopback or
/// not, without a token: what it serves is public and read-only.
pub fn bind(listen: &str) -> Result<std::net::TcpListener, BroadcastError> {
    use std::net::ToSocketAddrs;
    let unknown = || BroadcastError::Address(listen.to_string());
    let addr = listen.to_socket_addrs().map_err(|_| unknown())?.next().ok_or_else(unknown)?;
    let listener = std::net::TcpListener::bind(addr).map_err(|source| BroadcastError::Bind { addr, source })?;
    listener.set_nonblocking(true).map_err(|source| BroadcastError::Bind { addr, source })?;
    Ok(listener)
}

/// Serves the feed alone on `listener` until `shutdown` completes: the
/// feed's routes and nothing else. The log line `broadcast listening`
/// gives its address.
pub async fn serve(
    listener: std::net::TcpListener,
    broadcast: &Broadcast,
    daemon: &DaemonConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let addr = listener.local_addr()?;
    let listener = tokio::net::TcpListener::from_std(listener)?;
    let listen = broadcast.listen.clone().unwrap_or_else(|| addr.to_string());
    let hosts = Hosts::new(&listen, addr, &broadcast.hosts);
    let app = Router::new()
        .merge(routes(Arc::new(Feeds::new(daemon, broadcast))))
        .fallback(|| async { plain(StatusCode::NOT_FOUND, "no such feed: the list is at /broadcast/") })
        .layer(middleware::from_fn_with_state(Arc::new(hosts), host_guard));
    info!(address = %format!("http://{addr}/broadcast/"), "broadcast listening");
    super::http::serve(listener, app, shutdown).await
}

/// The feed's routes on the desk's server: answering to the desk's names
/// and `broadcast.hosts`, past no token.
pub(super) fn on_desk(daemon: &DaemonConfig, broadcast: &Broadcast, hosts: Hosts) -> Router {
    routes(Arc::new(Feeds::new(daemon, broadcast))).layer(middleware::from_fn_with_state(Arc::new(hosts), host_guard))
}

fn routes(feeds: Arc<Feeds>) -> Router {
    Router::new()
        .route("/broadcast", get(list))
        .route("/broadcast/", get(list))
        .route("/broadcast/{event}/{file}", get(round))
        .with_state(feeds)
}

/// A request names a host the feed answers to, else 421.
async fn host_guard(State(hosts): State<Arc<Hosts>>, req: Request, next: Next) -> Response {
    if hosts.allow_request(&req) {
        return next.run(req).await;
    }
    plain(StatusCode::MISDIRECTED_REQUEST, "this feed does not answer to that host name: list it in broadcast.hosts")
}

fn plain(status: StatusCode, text: &str) -> Response {
    let mut r = (status, format!("{text}\n")).into_response();
    r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
    r
}

/// A file's identity: its size, modification time and inode. The same
/// identity, the same bytes: the round file and the kept TRF are only ever
/// replaced whole, by a rename.
type FileId = (u64, Option<SystemTime>, u64);

fn file_id(path: &std::path::Path) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(path).ok()?;
    Some((m.len(), m.modified().ok(), m.ino()))
}

/// A feed as built, with the identity of the inputs it was built from.
struct Built {
    inputs: [Option<FileId>; 2],
    body: Bytes,
    /// Quoted, as the header carries it.
    etag: String,
    modified: SystemTime,
}

/// The feeds of a daemon's folders.
struct Feeds {
    pgn: PathBuf,
    /// The kept TRF (`<state>/pairings.trf`, as `pairings` keeps it).
    trf: PathBuf,
    pairings: Pairings,
    time_control: Option<String>,
    /// By event folder and round: only feeds that exist are kept, so it
    /// grows with the rounds, not with the requests.
    built: Mutex<HashMap<(String, String), Arc<Built>>>,
}

impl Feeds {
    fn new(daemon: &DaemonConfig, broadcast: &Broadcast) -> Feeds {
        let state = &daemon.folders.state;
        Feeds {
            pgn: daemon.folders.pgn.clone(),
            trf: Pairings::new(state).kept_file().to_path_buf(),
            pairings: Pairings::new(state),
            time_control: broadcast.time_control.clone(),
            built: Mutex::new(HashMap::new()),
        }
    }

    /// The feed of `event`'s round `round` (both checked names); `None`
    /// when the event has no such round.
    fn feed(&self, event: &str, round: &str) -> io::Result<Option<Arc<Built>>> {
        let path = self.pgn.join(event).join(format!("round-{round}.pgn"));
        let inputs = [file_id(&path), file_id(&self.trf)];
        let key = (event.to_string(), round.to_string());
        let before = self.built.lock().unwrap_or_else(|e| e.into_inner()).get(&key).cloned();
        if let Some(b) = before.as_ref().filter(|b| b.inputs == inputs) {
            return Ok(Some(b.clone()));
        }
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(e),
        };
        let trf = self.pairings.current().filter(|t| folder(&t.name, "event") == event);
        let paired = trf.as_ref().is_some_and(|t| round.parse().is_ok_and(|n| t.round(n).next().is_some()));
        if inputs[0].is_none() && !paired {
            self.built.lock().unwrap_or_else(|e| e.into_inner()).remove(&key);
            return Ok(None);
        }
        let body = broadcast::feed(&text, trf.as_deref(), round, self.time_control.as_deref());
        let etag = etag_of(body.as_bytes());
        let newest = inputs.iter().flatten().filter_map(|i| i.1).max().unwrap_or(UNIX_EPOCH);
        let modified = match &before {
            // The inputs changed, the feed did not: its validators stay.
            Some(b) if b.etag == etag => b.modified,
            // A new feed within the second of the last: `If-Modified-Since`
            // has whole seconds, so the time moves on by one.
            Some(b) if seconds(newest) <= seconds(b.modified) => b.modified + Duration::from_secs(1),
            _ => newest,
        };
        let built = Arc::new(Built { inputs, body: Bytes::from(body), etag, modified });
        self.built.lock().unwrap_or_else(|e| e.into_inner()).insert(key, built.clone());
        Ok(Some(built))
    }

    /// Every event folder with a round, each with its rounds (as named in
    /// the file names), and the TRF's event with its paired rounds.
    fn rounds(&self) -> BTreeMap<String, BTreeSet<Round>> {
        let mut out: BTreeMap<String, BTreeSet<Round>> = BTreeMap::new();
        for event in std::fs::read_dir(&self.pgn).into_iter().flatten().flatten() {
            let name = event.file_name().to_string_lossy().into_owned();
            if !is_folder(&name) || !event.file_type().is_ok_and(|t| t.is_dir()) {
                continue;
            }
            for f in std::fs::read_dir(event.path()).into_iter().flatten().flatten() {
                let file = f.file_name().to_string_lossy().into_owned();
                if let Some(r) = round_of(&file) {
                    out.entry(name.clone()).or_default().insert(Round(r.to_string()));
                }
            }
        }
        if let Some(t) = self.pairings.current() {
            let rounds = out.entry(folder(&t.name, "event")).or_default();
            rounds.extend(t.pairings.iter().map(|p| Round(p.round.to_string())));
        }
        out.retain(|e, r| is_folder(e) && !r.is_empty());
        out
    }
}

/// A round's name, ordered as numbers where it is one (2 before 10).
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Round(String);

impl Round {
    fn key(&self) -> (u64, &str) {
        (self.0.parse().unwrap_or(u64::MAX), &self.0)
    }
}

/// The round `round-<n>.pgn` names, when `n` is a name a round's folder can have.
fn round_of(file: &str) -> Option<&str> {
    file.strip_prefix("round-")?.strip_suffix(".pgn").filter(|r| is_folder(r))
}

/// Whether `name` is one [`folder`] can give: a safe part (letters, digits,
/// single `_` and `.` inside), or one and a hash (`Open_A-3f9c01ab`). No
/// path, no `..`, nothing hidden.
fn is_folder(name: &str) -> bool {
    let safe = |s: &str| !s.is_empty() && part(s) == s;
    match name.rsplit_once('-') {
        Some((prefix, hash)) => {
            safe(prefix) && hash.len() == 8 && hash.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        }
        None => safe(name),
    }
}

/// A strong validator: the first 128 bits of the body's SHA-256, quoted.
fn etag_of(body: &[u8]) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(body);
    let hex: String = digest.iter().take(16).map(|b| format!("{b:02x}")).collect();
    format!("\"{hex}\"")
}

fn seconds(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

async fn round(
    State(feeds): State<Arc<Feeds>>,
    Path((event, file)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    let Some(round) = round_of(&file).filter(|_| is_folder(&event)).map(str::to_string) else {
        return plain(StatusCode::NOT_FOUND, "no such feed: the list is at /broadcast/");
    };
    let found = tokio::task::spawn_blocking(move || feeds.feed(&event, &round)).await;
    let built = match found {
        Ok(Ok(Some(b))) => b,
        Ok(Ok(None)) => return plain(StatusCode::NOT_FOUND, "no such round: the list is at /broadcast/"),
        Ok(Err(e)) => return plain(StatusCode::INTERNAL_SERVER_ERROR, &format!("the round file cannot be read: {e}")),
        Err(e) => return plain(StatusCode::INTERNAL_SERVER_ERROR, &format!("internal error: {e}")),
    };
    let unchanged = match headers.get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok()) {
        // `If-None-Match` wins over `If-Modified-Since` (RFC 9110, 13.2.2).
        Some(tags) => tags.split(',').map(|t| t.trim().trim_start_matches("W/")).any(|t| t == "*" || t == built.etag),
        None => headers
            .get(header::IF_MODIFIED_SINCE)
            .and_then(|v| v.to_str().ok())
            .and_then(parse_http_date)
            .is_some_and(|since| seconds(built.modified) <= since),
    };
    let mut r = if unchanged {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        (StatusCode::OK, built.body.clone()).into_response()
    };
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/x-chess-pgn; charset=utf-8"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    if let Ok(v) = HeaderValue::from_str(&built.etag) {
        h.insert(header::ETAG, v);
    }
    if let Ok(v) = HeaderValue::from_str(&http_date(built.modified)) {
        h.insert(header::LAST_MODIFIED, v);
    }
    r
}

/// The list of feeds: a page of links, or their addresses one a line for a
/// client that does not ask for HTML.
async fn list(State(feeds): State<Arc<Feeds>>, headers: HeaderMap) -> Response {
    let listed = {
        let feeds = feeds.clone();
        tokio::task::spawn_blocking(move || feeds.rounds()).await.unwrap_or_default()
    };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("localhost");
    let https = headers.get("x-forwarded-proto").is_some_and(|p| p.as_bytes().eq_ignore_ascii_case(b"https"));
    let base = format!("{}://{host}/broadcast/", if https { "https" } else { "http" });
    let html = headers.get(header::ACCEPT).and_then(|a| a.to_str().ok()).is_some_and(|a| a.contains("text/html"));
    let mut text = String::new();
    if html {
        text.push_str(
            "<!doctype html><html><head><meta charset=\"utf-8\"><title>Broadcast</title></head><body><h1>Broadcast</h1>\n",
        );
    }
    for (event, rounds) in &listed {
        let mut rounds: Vec<&Round> = rounds.iter().collect();
        rounds.sort_by(|a, b| a.key().cmp(&b.key()));
        if html {
            text.push_str(&format!("<h2>{}</h2><ul>\n", escape(event)));
        }
        for r in rounds {
            let path = format!("{event}/round-{}.pgn", r.0);
            if html {
                text.push_str(&format!(
                    "<li>round {}: <a href=\"/broadcast/{}\">{}{}</a></li>\n",
                    escape(&r.0),
                    escape(&path),
                    escape(&base),
                    escape(&path)
                ));
            } else {
                text.push_str(&format!("{base}{path}\n"));
            }
        }
        if html {
            text.push_str("</ul>\n");
        }
    }
    let kind = if html {
        text.push_str("</body></html>\n");
        "text/html; charset=utf-8"
    } else {
        "text/plain; charset=utf-8"
    };
    let mut r = (StatusCode::OK, text).into_response();
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static("default-src 'none'"));
    r
}

/// `Sun, 06 Nov 1994 08:49:37 GMT` (RFC 9110's IMF-fixdate).
fn http_date(t: SystemTime) -> String {
    httpdate::fmt_http_date(t)
}

/// Seconds since 1970 of an IMF-fixdate; `None` for any other form (the
/// header is then ignored, as RFC 9110 allows).
fn parse_http_date(text: &str) -> Option<u64> {
    let t = httpdate::parse_http_date(text).ok()?;
    // Only the fixed form: the obsolete ones `httpdate` also reads are not written back alike.
    (httpdate::fmt_http_date(t) == text).then(|| seconds(t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn http_dates_are_written_and_read_back() {
        let t = UNIX_EPOCH + Duration::from_secs(784_111_777);
        assert_eq!(http_date(t), "Sun, 06 Nov 1994 08:49:37 GMT");
        assert_eq!(parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT"), Some(784_111_777));
        assert_eq!(http_date(UNIX_EPOCH + Duration::from_secs(951_782_400)), "Tue, 29 Feb 2000 00:00:00 GMT");
        for bad in ["", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37", "Sun, 32 Nov 1994 08:49:37 GMT"]
        {
            assert_eq!(parse_http_date(bad), None, "{bad}");
        }
    }

    #[test]
    fn only_names_a_folder_can_have_are_taken() {
        for ok in ["Open", "4.1", "Sitges_Open_A-3f9c01ab", "Torneo_escolar_de_primavera-da8ceed7", "3"] {
            assert!(is_folder(ok), "{ok}");
        }
        for bad in ["", "..", ".hidden", "a/b", "a-b", "Open-3F9C01AB", "x-123", "_a", "a..b", "%2e%2e"] {
            assert!(!is_folder(bad), "{bad}");
        }
        assert_eq!(round_of("round-3.pgn"), Some("3"));
        assert_eq!(round_of("round-../x.pgn"), None);
        assert_eq!(round_of("round-3.pgn.tmp"), None);
    }
}
