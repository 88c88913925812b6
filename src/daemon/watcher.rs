//! The inbox's change events, from the OS's watcher or (on network shares,
//! where the OS sees no events) from a poll watcher, into a channel the
//! daemon's loop reads.

use std::path::Path;
use std::time::Duration;

use notify::{RecursiveMode, Watcher};
use tokio::sync::mpsc;

use super::folders::DaemonError;
use crate::config::Watch;

/// Events waiting for the daemon's loop.
pub(super) type Events = mpsc::Receiver<notify::Result<notify::Event>>;

/// Events held while the loop is busy. Past this the watcher's thread waits:
/// the kernel's queue then overflows, which is reported and answered with a
/// full scan, so a burst of drops costs a scan, never a file.
const EVENT_QUEUE: usize = 4096;

/// Starts watching `inbox` (not its sub-folders) the way `watch` says; events
/// stop when the watcher returned is dropped.
pub(super) fn watch_inbox(inbox: &Path, watch: &Watch) -> Result<(Box<dyn Watcher + Send>, Events), DaemonError> {
    let (tx, rx) = mpsc::channel(EVENT_QUEUE);
    let handler = move |res| {
        let _ = tx.blocking_send(res);
    };
    let watch_err = |source| DaemonError::Watch { path: inbox.to_path_buf(), source };
    let mut watcher: Box<dyn Watcher + Send> = if watch.poll {
        let config = notify::Config::default().with_poll_interval(Duration::from_millis(watch.poll_interval_ms));
        Box::new(notify::PollWatcher::new(handler, config).map_err(watch_err)?)
    } else {
        Box::new(notify::RecommendedWatcher::new(handler, notify::Config::default()).map_err(watch_err)?)
    };
    watcher.watch(inbox, RecursiveMode::NonRecursive).map_err(watch_err)?;
    Ok((watcher, rx))
}
