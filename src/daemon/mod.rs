//! The drop-folder daemon behind `scoresheet watch`: files dropped into the
//! inbox are claimed ([`claim`]), converted and routed ([`process`]) on a
//! bounded pool of workers, and archived; nothing is ever lost or written
//! twice, whatever moment the daemon is killed at.
//!
//! Errors are of two kinds, as in ripgrep and watchexec: a [`DaemonError`]
//! stops the daemon (it cannot start: no folder, no watcher), a
//! [`process::FileError`] concerns one file, is logged and retried, and the run
//! goes on.

pub mod claim;
pub mod detect;
pub mod names;
pub mod place;
pub mod process;
pub mod round;

use std::collections::{HashSet, VecDeque};
use std::ffi::OsString;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use notify::{RecursiveMode, Watcher};
use tokio::task::JoinSet;
use tracing::{error, info, warn};

use crate::config::Watch;
use crate::convert::Options;
use claim::WorkDir;
use detect::Detector;
use process::{Context, FileError, Outcome};

/// The folders the daemon works in, all resolved against the root.
#[derive(Debug, Clone)]
pub struct Folders {
    pub inbox: PathBuf,
    pub pgn: PathBuf,
    pub review: PathBuf,
    pub rejected: PathBuf,
    pub archive: PathBuf,
    pub work: PathBuf,
}

impl Folders {
    /// The folders of a config, under `root` (else the config's root).
    pub fn new(watch: &Watch, root: Option<&Path>) -> Folders {
        let root = root.unwrap_or(&watch.root);
        let at = |p: &Path| root.join(p);
        Folders {
            inbox: at(&watch.inbox),
            pgn: at(&watch.pgn),
            review: at(&watch.review),
            rejected: at(&watch.rejected),
            archive: at(&watch.archive),
            work: at(&watch.work),
        }
    }

    fn all(&self) -> [(&'static str, &Path); 6] {
        [
            ("inbox", &self.inbox),
            ("pgn", &self.pgn),
            ("review", &self.review),
            ("rejected", &self.rejected),
            ("archive", &self.archive),
            ("work", &self.work),
        ]
    }
}

/// What stops the daemon (or keeps it from starting).
#[derive(Debug, thiserror::Error)]
pub enum DaemonError {
    #[error("cannot create the {name} folder {}: {source}", path.display())]
    Folder { name: &'static str, path: PathBuf, source: std::io::Error },
    #[error("cannot set up the work folder {}: {source}", path.display())]
    Work { path: PathBuf, source: std::io::Error },
    #[error("cannot watch {}: {source} (on a network share, try --poll)", path.display())]
    Watch { path: PathBuf, source: notify::Error },
}

/// Everything `run` needs.
#[derive(Debug, Clone)]
pub struct Settings {
    pub folders: Folders,
    pub options: Options,
    pub watch: Watch,
}

/// What a run did, when it stopped.
#[derive(Debug, Default, Clone, Copy)]
pub struct Summary {
    pub done: usize,
    pub retried: usize,
}

#[derive(Debug, Clone)]
enum Job {
    /// A file in the inbox, to be claimed first.
    Inbox(PathBuf),
    /// A file already claimed (after a failure, or taken over from a dead daemon).
    Claimed(PathBuf),
}

impl Job {
    fn name(&self) -> OsString {
        match self {
            Job::Inbox(p) | Job::Claimed(p) => p.file_name().unwrap_or_default().to_os_string(),
        }
    }
}

/// How a job ended.
enum Ended {
    /// Processed; the name it was dropped under.
    Done(OsString, Outcome, Duration),
    /// Someone else claimed it first, or it went away.
    Gone(OsString),
    Failed(Job, FileError),
}

/// Runs the daemon until `shutdown` completes; then takes no new file,
/// gives the files in progress `stop_timeout_secs` to finish, and returns.
pub async fn run(settings: Settings, shutdown: impl Future<Output = ()>) -> Result<Summary, DaemonError> {
    let Settings { folders, options, watch } = settings;
    for (name, path) in folders.all() {
        std::fs::create_dir_all(path).map_err(|source| DaemonError::Folder {
            name,
            path: path.to_path_buf(),
            source,
        })?;
    }
    // Events name paths as they were watched: watch the canonical inbox.
    let inbox = folders.inbox.canonicalize().unwrap_or_else(|_| folders.inbox.clone());
    let work = Arc::new(
        WorkDir::create(&folders.work).map_err(|source| DaemonError::Work { path: folders.work.clone(), source })?,
    );
    let workers = match watch.workers {
        0 => std::thread::available_parallelism().map_or(2, |n| n.get()),
        n => n,
    };
    let (tx, mut rx) = tokio::sync::mpsc::channel::<notify::Result<notify::Event>>(4096);
    // The watcher's thread waits when the channel is full: the kernel's queue
    // then overflows, which is reported and answered with a full scan.
    let handler = move |res| {
        let _ = tx.blocking_send(res);
    };
    let watch_err = |source| DaemonError::Watch { path: inbox.clone(), source };
    let mut watcher: Box<dyn Watcher + Send> = if watch.poll {
        let config = notify::Config::default().with_poll_interval(Duration::from_millis(watch.poll_interval_ms));
        Box::new(notify::PollWatcher::new(handler, config).map_err(watch_err)?)
    } else {
        Box::new(notify::RecommendedWatcher::new(handler, notify::Config::default()).map_err(watch_err)?)
    };
    watcher.watch(&inbox, RecursiveMode::NonRecursive).map_err(watch_err)?;
    info!(
        inbox = %inbox.display(),
        pgn = %folders.pgn.display(),
        review = %folders.review.display(),
        rejected = %folders.rejected.display(),
        archive = %folders.archive.display(),
        work = %work.dir().display(),
        workers,
        poll = watch.poll,
        settle_ms = watch.settle_ms,
        "watching"
    );

    let ctx = Arc::new(Context { folders: Folders { inbox: inbox.clone(), ..folders }, options, fsync: watch.fsync });
    let mut state = State {
        detector: Detector::new(
            inbox.clone(),
            Duration::from_millis(watch.settle_ms),
            Duration::from_secs(watch.stale_open_secs),
        ),
        queue: VecDeque::new(),
        names: HashSet::new(),
        retries: Vec::new(),
        summary: Summary::default(),
    };
    state.recover(&work);
    state.sweep(&ctx.folders);
    state.scan(&inbox);

    let mut running: JoinSet<Ended> = JoinSet::new();
    let mut tick = tokio::time::interval(Duration::from_millis(50));
    let mut scan = tokio::time::interval(Duration::from_secs(watch.scan_interval_secs.max(1)));
    let mut progress = tokio::time::interval(Duration::from_secs(2));
    let retry = Duration::from_secs(watch.retry_secs);
    tokio::pin!(shutdown);
    loop {
        while running.len() < workers
            && let Some(job) = state.queue.pop_front()
        {
            let (ctx, work) = (ctx.clone(), work.clone());
            running.spawn_blocking(move || run_job(&ctx, &work, job));
        }
        tokio::select! {
            () = &mut shutdown => break,
            Some(event) = rx.recv() => match event {
                Ok(event) => {
                    if event.need_rescan() {
                        warn!("the watcher missed events: scanning the inbox");
                        state.scan(&inbox);
                    }
                    let now = Instant::now();
                    for path in &event.paths {
                        if state.detector.event(&event.kind, path, now) == detect::Verdict::Ready {
                            state.push(Job::Inbox(path.clone()));
                        }
                    }
                }
                Err(e) => {
                    warn!(error = %e, "watcher error: scanning the inbox");
                    state.scan(&inbox);
                }
            },
            Some(joined) = running.join_next(), if !running.is_empty() => {
                state.ended(joined, &ctx, Some(retry));
            }
            _ = tick.tick() => {
                let now = Instant::now();
                for path in state.detector.settled(now) {
                    state.push(Job::Inbox(path));
                }
                let (due, later): (Vec<_>, Vec<_>) = state.retries.drain(..).partition(|(at, _)| *at <= now);
                state.retries = later;
                for (_, job) in due {
                    state.names.remove(&job.name());
                    state.push(job);
                }
            }
            _ = scan.tick() => {
                state.scan(&inbox);
                state.recover(&work);
                state.sweep(&ctx.folders);
            }
            _ = progress.tick() => {
                let waiting = state.queue.len() + state.detector.len();
                if waiting > 0 {
                    info!(waiting, in_progress = running.len(), done = state.summary.done, "backlog");
                }
            }
        }
    }
    drop(watcher);
    info!(in_progress = running.len(), "stopping: no new files taken");
    let stop = Duration::from_secs(watch.stop_timeout_secs);
    let finished = tokio::time::timeout(stop, async {
        while let Some(joined) = running.join_next().await {
            state.ended(joined, &ctx, None);
        }
    })
    .await;
    if finished.is_err() {
        warn!(
            in_progress = running.len(),
            "stop timeout: files still in progress stay claimed and are finished at the next start"
        );
    }
    info!(done = state.summary.done, "stopped");
    Ok(state.summary)
}

struct State {
    detector: Detector,
    queue: VecDeque<Job>,
    /// Names queued, running or waiting for a retry: one file of a name at a time.
    names: HashSet<OsString>,
    retries: Vec<(Instant, Job)>,
    summary: Summary,
}

impl State {
    fn push(&mut self, job: Job) {
        if self.names.insert(job.name()) {
            self.queue.push_back(job);
        }
    }

    /// Temporary files left in the output folders by a daemon killed while
    /// writing; a live daemon's last for milliseconds.
    fn sweep(&self, folders: &Folders) {
        let old = Duration::from_secs(600);
        let removed: usize = [&folders.pgn, &folders.review, &folders.rejected, &folders.archive]
            .iter()
            .map(|d| place::sweep(d, old))
            .sum();
        if removed > 0 {
            info!(removed, "removed temporary files left by a stopped daemon");
        }
    }

    /// Queues the files that daemons which died had claimed.
    fn recover(&mut self, work: &WorkDir) {
        let names = &self.names;
        match work.recover(|n| names.contains(n)) {
            Ok(taken) => {
                if !taken.is_empty() {
                    info!(files = taken.len(), "taking over files a stopped daemon had claimed");
                }
                taken.into_iter().for_each(|p| self.push(Job::Claimed(p)));
            }
            Err(e) => warn!(error = %e, "cannot look for files a stopped daemon had claimed"),
        }
    }

    /// Every file in the inbox not yet known is watched until it settles.
    fn scan(&mut self, inbox: &Path) {
        let entries = match std::fs::read_dir(inbox) {
            Ok(e) => e,
            Err(e) => {
                error!(inbox = %inbox.display(), error = %e, "cannot list the inbox");
                return;
            }
        };
        let now = Instant::now();
        for entry in entries.flatten() {
            if entry.file_type().is_ok_and(|t| t.is_file()) && !self.names.contains(&entry.file_name()) {
                self.detector.found(&entry.path(), now);
            }
        }
    }

    /// Takes in a finished job; a failed one is retried after `retry` (`None`
    /// while stopping: it stays claimed for the next start).
    fn ended(&mut self, joined: Result<Ended, tokio::task::JoinError>, ctx: &Context, retry: Option<Duration>) {
        match joined {
            Ok(Ended::Done(name, out, took)) => {
                self.names.remove(&name);
                self.summary.done += 1;
                let outputs: Vec<String> = out
                    .outputs
                    .iter()
                    .map(|p| p.strip_prefix(ctx.folders.pgn.parent().unwrap_or(Path::new(""))).unwrap_or(p))
                    .map(|p| p.display().to_string())
                    .collect();
                info!(
                    file = %out.name,
                    to = %out.routed(),
                    ms = took.as_millis() as u64,
                    findings = ?out.findings,
                    error = out.error.as_deref().unwrap_or(""),
                    outputs = ?outputs,
                    "done"
                );
            }
            Ok(Ended::Gone(name)) => {
                self.names.remove(&name);
            }
            Ok(Ended::Failed(job, e)) => {
                self.summary.retried += 1;
                error!(
                    file = ?job.name(),
                    error = %e,
                    retry_in_s = retry.map(|r| r.as_secs()),
                    "cannot finish the file; it stays and is retried"
                );
                if let Some(retry) = retry {
                    self.retries.push((Instant::now() + retry, job));
                }
            }
            Err(e) => error!(error = %e, "a worker stopped"),
        }
    }
}

/// One job on a worker thread. A panic (a bug: bad input must never cause
/// one) is caught so that the file is rejected, not retried forever.
fn run_job(ctx: &Context, work: &WorkDir, job: Job) -> Ended {
    let start = Instant::now();
    let claimed = match &job {
        Job::Inbox(p) => match work.claim(p) {
            Ok(Some(c)) => c,
            Ok(None) => return Ended::Gone(job.name()),
            Err(source) => return Ended::Failed(job.clone(), FileError { path: p.clone(), source }),
        },
        Job::Claimed(c) => c.clone(),
    };
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| process::process(ctx, &claimed)))
        .unwrap_or_else(|_| {
            process::reject_file(ctx, &claimed, "internal error while reading the file; please report it")
        });
    match result {
        Ok(out) => Ended::Done(job.name(), out, start.elapsed()),
        Err(e) => Ended::Failed(Job::Claimed(claimed), e),
    }
}
