//! The HTTP server of the desk and the feed, fit for a public network: the
//! feed may face the Internet, and no client may stop it, or the workers
//! reading sheets beside it.
//!
//! - A client has [`HEADER_READ`] to send a request's headers, and as long
//!   to start the next one on a kept-alive connection (hyper's header-read
//!   timeout, which also runs while a connection is idle): a connection
//!   that sends a request line and never the blank line is closed.
//! - At most [`connection_cap`] connections are open at once, well below
//!   the process's descriptors, so that the workers always have theirs.
//!   At the cap, a new connection closes the oldest open one: a client
//!   holding many connections open cannot keep a new one out.
//! - A request with more than one `Host` header is refused (400): which one
//!   a check reads and which one a proxy routed by is not to be guessed.

use std::collections::VecDeque;
use std::future::Future;
use std::io;
use std::time::Duration;

use axum::Router;
use axum::extract::Request;
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::task::AbortHandle;
use tracing::{debug, warn};

/// How long a client has to send a request's headers, or to start its next
/// request on a connection kept alive.
pub(super) const HEADER_READ: Duration = Duration::from_secs(10);

/// The descriptors kept for everything but the server's connections: the
/// workers' sheets and outputs, the records, the logs.
const DESCRIPTORS_KEPT: u64 = 256;

/// The most connections open at once when the descriptor limit is not known
/// or is higher.
const MOST_CONNECTIONS: usize = 4096;

/// How many connections the server keeps open at most: [`MOST_CONNECTIONS`],
/// or fewer where the process may open fewer descriptors than that and
/// [`DESCRIPTORS_KEPT`] more.
pub(super) fn connection_cap() -> usize {
    let cap = descriptor_limit().map_or(MOST_CONNECTIONS as u64, |n| n.saturating_sub(DESCRIPTORS_KEPT));
    (cap as usize).clamp(16, MOST_CONNECTIONS)
}

/// The process's soft limit on open descriptors, where known.
fn descriptor_limit() -> Option<u64> {
    // `Max open files  1024  4096  files`: the soft limit is the first number.
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

/// Serves `app` on `listener` until `shutdown` completes (then each open
/// connection finishes the request it is answering), with the bounds above.
pub(super) async fn serve(
    listener: tokio::net::TcpListener,
    app: Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let app = app.layer(middleware::from_fn(one_host));
    let cap = connection_cap();
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let mut open: VecDeque<AbortHandle> = VecDeque::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        let (stream, _) = match stream {
            Ok(s) => s,
            Err(e) => {
                // Out of descriptors or a connection reset before it was
                // taken: said, and the next one tried after a breath.
                warn!(error = %e, "the server cannot take a connection");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        make_room(&mut open, cap);
        let service = TowerToHyperService::new(app.clone());
        let mut stopped = stopped.clone();
        let task = tokio::spawn(async move {
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder.timer(TokioTimer::new()).header_read_timeout(HEADER_READ);
            let conn = builder.serve_connection(TokioIo::new(stream), service);
            let mut conn = std::pin::pin!(conn);
            loop {
                tokio::select! {
                    result = conn.as_mut() => {
                        if let Err(e) = result {
                            debug!(error = %e, "a connection ended");
                        }
                        break;
                    }
                    _ = stopped.changed() => conn.as_mut().graceful_shutdown(),
                }
            }
        });
        open.push_back(task.abort_handle());
    }
    // Each connection finishes the request it is answering, then closes
    // (an idle one at once), for [`STOP_GRACE`] at most.
    let _ = stop.send(true);
    let finished = async {
        while open.iter().any(|c| !c.is_finished()) {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    let _ = tokio::time::timeout(STOP_GRACE, finished).await;
    open.iter().for_each(AbortHandle::abort);
    Ok(())
}

/// How long the connections open at a stop have to finish their requests.
const STOP_GRACE: Duration = Duration::from_secs(2);

/// Makes room for one more connection: the connections that ended are
/// forgotten and, while `cap` are still open, the oldest is closed.
fn make_room(open: &mut VecDeque<AbortHandle>, cap: usize) {
    if open.len() < cap {
        return;
    }
    open.retain(|c| !c.is_finished());
    while open.len() >= cap {
        if let Some(oldest) = open.pop_front() {
            oldest.abort();
        }
    }
}

/// Refuses a request with more than one `Host` header (400).
async fn one_host(req: Request, next: Next) -> Response {
    if req.headers().get_all(header::HOST).iter().nth(1).is_some() {
        return (StatusCode::BAD_REQUEST, "a request names one host: this one has several Host headers\n")
            .into_response();
    }
    next.run(req).await
}
