//! The drop-folder daemon behind `scoresheet watch`: files dropped into the
//! inbox are claimed, converted and routed to pgn/, review/ or rejected/ on a
//! bounded pool of workers, and archived.
//!
//! # What it guarantees
//!
//! Whatever moment the daemon is killed at (`kill -9` included), every file
//! dropped ends up in archive/ exactly as received, and its games in pgn/,
//! review/ or rejected/, each once: nothing is lost, nothing is written twice,
//! nothing is overwritten. This is where each part of that is kept; a change to
//! the daemon keeps all of them.
//!
//! 1. **Only complete files are read** (`detect::Detector`): a file renamed
//!    into the inbox at once, any other once its size and modification time
//!    have stayed the same for `settle_ms` after its last write or close (a
//!    close is a hint, not proof: a sheet written in two steps is closed
//!    twice), a file a writer still holds open only once closed (or after
//!    `stale_open_secs`). A file that changed while it was read (its size,
//!    modification or change time moved) is not used: nothing is written, it
//!    stays claimed and is read again once quiet (`process::process`). Links,
//!    pipes and devices are never followed or read: each is moved as it is to
//!    rejected/ with its `.error.txt` (not archived: it holds no bytes of its
//!    own), or, where it cannot be moved, left in the inbox and said once.
//!    Names `detect::ignored` lists (dotfiles, editors' temporary files) are
//!    never taken.
//! 2. **Claim by rename** (`claim::WorkDir::claim`). Each daemon owns a
//!    folder `<work>/<id>/`, held by a lock on `<work>/<id>.lock` for its whole
//!    life (`claim::WorkDir::create` locks it under a `.starting` name first,
//!    so a `.lock` anyone can see is always held). A file is claimed by
//!    renaming it from the inbox into that folder: the rename is atomic, so of
//!    two daemons on one inbox exactly one gets the file and the other finds it
//!    gone. The scheduler runs one file of a name at a time (`State::push`),
//!    and a claim never replaces a file of the folder.
//! 3. **Outputs never overwrite, and are idempotent by content**
//!    (`place::place_new`). An output is written to a temporary file in the
//!    daemon's private scratch folder `<work>/<id>/.tmp/` (beside the target,
//!    dot-named `.scoresheet-…`, only where that folder is on another file
//!    system), synced to disk when `watch.fsync` (`crate::emit::file`),
//!    created readable as the umask allows, then given the first of `<name>`,
//!    `<name>-2`, … (before the extension) that nobody holds, by a rename that
//!    refuses an existing name: a listing of an output folder never shows a
//!    half-written file. A name that
//!    already holds exactly these bytes is the output: a file processed again,
//!    after a crash or dropped twice, writes none of its games twice. Two
//!    outputs derived from placed games are replaced instead, each at once
//!    ([`crate::emit::file::replace`]): a review game's `<name>.json` report
//!    beside it, and the round's file `pgn/<event>/round-<n>.pgn` (`round`:
//!    the folder named from the event's whole name; one game per board,
//!    judged and rewritten whole under a lock with the game's own pgn/ file
//!    placed in the same turn; a game already in it not added again, a
//!    correction replacing its board's game, another game for the board sent
//!    to review with `duplicate-board` instead of pgn/).
//! 4. **The original archived by link** (`place::link_new`): hard-linked
//!    into archive/ under its own name (else `-2`, …), never through memory and
//!    never over another file; a name that already links to this very file
//!    counts as done. Across file systems it is copied instead, placed as
//!    outputs are (always synced). A file rejected unread (too large) goes to
//!    rejected/ the same way; a name used again keeps its extension
//!    (`mesa-2.txt`) in archive/ and rejected/.
//! 5. **The claim removed last** (`outcome::archive`, the last step but one
//!    of `process::process` and `process::reject_file`; for a sheet the
//!    original is linked inside `publish::publish`, under the records'
//!    lock): until the original is linked into archive/ and the claim
//!    removed, a crash leaves the file claimed, and every step is done again
//!    without writing twice (3, 4).
//! 6. **A dead daemon's claims taken over** (`claim::WorkDir::recover`, at
//!    the start and every `scan_interval_secs`). A `.lock` nobody holds was a
//!    daemon's that died: the kernel frees a lock with its process. Its claimed
//!    files are linked into this daemon's folder (a link never replaces a
//!    file), unlinked from the dead one, and processed from there; a name
//!    queued or running here waits for a later pass. Once every file is taken,
//!    the folder (with any temporary files in it) and the lock go.
//! 7. **The sweep** (`place::sweep`, at the start and every
//!    `scan_interval_secs`): a daemon killed while writing leaves its
//!    temporary files in its own folder, which goes at the takeover (6);
//!    those staged beside their target (another file system) are dotfiles,
//!    removed from pgn/, review/, rejected/ and archive/ (and their per-event
//!    folders) once ten minutes old; a live daemon's last for milliseconds.
//! 8. **A game's two copies, whenever the second comes** (`games`,
//!    `publish`). Which sheets were published where is kept in the state
//!    folder, one record per game in an SQLite database with the indexes
//!    that find a copy's partner (each change one transaction), all looked
//!    at and changed under one lock
//!    (`<state>/games.lock`) by one worker of one daemon at a time. A sheet
//!    whose other copy is recorded is read again with it (the first from
//!    archive/) and the game's outputs are replaced: its file put over the
//!    earlier one in the same folder, or placed in the new folder and the
//!    earlier one removed, its board's game replaced in the round file
//!    (`round::Round::remove`); never two readings of one game in pgn/. A
//!    record is written pending before the outputs and final after them: a
//!    sheet of a game whose publication a kill cut short waits (retried) for
//!    that file to be done again. Each output, and each game put in a round
//!    file, is appended to the file's placing log (`placing`) before it is
//!    written: the redo puts its reading over exactly those, whatever it
//!    reads this time. A file is read once per attempt (`reading`), and one
//!    of many sheets is published a part at a time, the lock let go between
//!    parts. The named steps a test ends the process at are in `crash`. The same
//!    file dropped again finds its record and publishes nothing new; a sheet
//!    dropped again under the name of a copy already read is a new reading of
//!    that copy (a correction), not the other copy: read alone when its game
//!    was (the round file judges it, 3), else read again with the other copy
//!    and the game replaced; a third copy is said and goes to review alone
//!    (`third-copy`).
//! 9. **The pairings** (`pairings`): a TRF named in the config or dropped
//!    into the inbox is kept in the state folder (replaced at once) and read
//!    by every daemon on the folders; a broken one is refused like an
//!    unreadable sheet. The games a newer TRF changes are read again from
//!    archive/ and replaced as in 8. That re-read is journaled
//!    (`pairings::Owed`, `<state>/pairings.reread`): the games it owes are
//!    kept before the new TRF is, and forgotten once every one is read
//!    again; a daemon that finds them at start reads them first
//!    (`rematch::resume`), with the pairings in force. A game read again
//!    twice is replaced twice, never published twice.
//!
//! A failure from outside a file (a folder that cannot be written, a full
//! disk) leaves the file claimed and retries it after `retry_secs`; a panic
//! while reading one rejects it rather than retrying it forever (`run_job`),
//! and so does a file the daemon's user may not read (moved as it is to
//! rejected/ with how to have it read: `process::process`); a claimed file
//! removed by hand is forgotten.
//! On SIGINT or SIGTERM no new file is taken, the files in progress get
//! `stop_timeout_secs` to finish, and any still unfinished stay claimed for
//! the next start to take over (6).
//!
//! The log has one line per file, bounded whatever the file (findings
//! counted per code, the error and the outputs cut short), a `progress` line
//! every two seconds while there is work (and once after) and the `stopped`
//! line, both with the split: games to pgn, review and rejected (an unreadable
//! file counts one rejected), files waiting.
//!
//! `tests/daemon.rs` holds the daemon to these: killed with SIGKILL at random
//! moments twenty times, two daemons on one inbox, a thousand files dropped at
//! once, a file written slowly, in two steps or saved by an editor, an output
//! folder that cannot be written, links and pipes dropped, corrections and
//! duplicates of a board; `tests/daemon_copies.rs` and
//! `tests/daemon_pairings.rs` to 8 and 9 (200 games' copies in two waves
//! across a restart, a kill while copies are read, kills at several points
//! of a TRF's re-read); and the unit tests of
//! `claim`, `detect`, `games`, `place` and `round`.
//!
//! # Errors
//!
//! Errors are of two kinds, as in ripgrep and watchexec: a [`DaemonError`]
//! stops the daemon (it cannot start: no folder, no watcher), an
//! `outcome::FileError` concerns one file, is logged and retried, and the run
//! goes on.

mod annotate;
// The desk's and the feed's: what they show of the daemon's folders.
#[cfg(feature = "desk")]
pub(crate) mod broadcast;
pub(crate) mod claim;
mod crash;
pub(crate) mod decide;
#[cfg(feature = "desk")]
pub mod desk;
pub(crate) mod detect;
mod folders;
pub(crate) mod games;
pub(crate) mod kept;
#[cfg(feature = "desk")]
pub(crate) mod listing;
pub(crate) mod names;
pub(crate) mod outcome;
pub(crate) mod pairings;
pub(crate) mod place;
mod placing;
pub(crate) mod process;
pub(crate) mod publish;
mod reading;
pub(crate) mod rematch;
pub(crate) mod results;
pub(crate) mod round;
pub(crate) mod route;
mod watcher;

use std::collections::{HashSet, VecDeque};
use std::ffi::OsString;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::task::JoinSet;
use tracing::{error, info, warn};

use crate::config::Watch;
use crate::convert::Options;
use crate::emit::file::Staging;
use crate::emit::report::Status;
use crate::finding::cut;
use claim::WorkDir;
use detect::Detector;
pub use folders::{DaemonError, Folders};
use outcome::{FileError, Outcome, ProcessConfig};
use watcher::Events;

/// The daemon's configuration: its folders, how to convert a file, and the
/// `watch:` section of the config (timings, workers, fsync).
#[derive(Debug, Clone)]
pub struct DaemonConfig {
    pub folders: Folders,
    pub options: Options,
    pub watch: Watch,
}

/// What a run did, when it stopped.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    /// Files finished.
    pub done: usize,
    /// Failures retried (a cause outside the file).
    pub retried: usize,
    /// Games put into pgn/.
    pub pgn: usize,
    /// Games put into review/.
    pub review: usize,
    /// Games rejected, and files that could not be read (one each).
    pub rejected: usize,
}

impl Summary {
    fn count(&mut self, out: &Outcome) {
        self.done += 1;
        if out.error.is_some() {
            self.rejected += 1;
        }
        for s in &out.statuses {
            match s {
                Status::Validated => self.pgn += 1,
                Status::Review => self.review += 1,
                Status::Rejected => self.rejected += 1,
            }
        }
        // A game read again with both copies moved: counted where it is now.
        for s in &out.replaced {
            let n = match s {
                Status::Validated => &mut self.pgn,
                Status::Review => &mut self.review,
                Status::Rejected => &mut self.rejected,
            };
            *n = n.saturating_sub(1);
        }
    }
}

#[derive(Debug, Clone)]
enum Job {
    /// A file in the inbox, to be claimed first.
    Inbox(PathBuf),
    /// A file already claimed (after a failure, or taken over from a dead daemon).
    Claimed(PathBuf),
    /// The re-read the pairings loaded last owe, finished (left by a kill,
    /// or owed by the config's pairings loaded at start).
    Rematch,
}

impl Job {
    fn name(&self) -> OsString {
        match self {
            Job::Inbox(p) | Job::Claimed(p) => p.file_name().unwrap_or_default().to_os_string(),
            // No file is named so (a path separator): never taken for one.
            Job::Rematch => OsString::from("pairings/"),
        }
    }
}

/// How a job ended.
enum Ended {
    /// Processed; the name it was dropped under.
    Done(OsString, Outcome, Duration),
    /// It changed while it was read: still claimed, to be read again once quiet.
    Changed(Job),
    /// Someone else claimed it first, or it went away.
    Gone(OsString),
    Failed(Job, FileError),
}

/// How often settled files and due retries are looked for.
const TICK: Duration = Duration::from_millis(50);
/// How often the progress line is logged (while there is work, or once after).
const PROGRESS: Duration = Duration::from_secs(2);
/// Longest error quoted in a log line, in characters.
const LOG_ERROR: usize = 300;
/// Outputs named in a file's log line; the rest are counted.
const LOG_OUTPUTS: usize = 4;
/// Temporary files older than this were left by a killed daemon (the sweep, in the module doc).
const TEMP_AGE: Duration = Duration::from_secs(600);

/// What the desk works with: the daemon's folders and options, its own
/// handles on the records and the pairings (shared with the daemons through
/// the state folder's locks), outputs staged beside their targets.
#[cfg(feature = "desk")]
pub(crate) fn process_config(config: &DaemonConfig) -> ProcessConfig {
    let folders = config.folders.clone();
    ProcessConfig {
        games: Arc::new(games::Games::new(&folders.state)),
        pairings: Arc::new(pairings::Pairings::new(&folders.state)),
        scores: Arc::default(),
        options: config.options.clone(),
        staging: Staging::beside(config.watch.fsync),
        folders,
    }
}

/// Runs the daemon until `shutdown` completes; then takes no new file,
/// gives the files in progress `stop_timeout_secs` to finish, and returns.
pub async fn run(config: DaemonConfig, shutdown: impl Future<Output = ()>) -> Result<Summary, DaemonError> {
    let DaemonConfig { folders, options, watch } = config;
    folders.create()?;
    // Events name paths as they were watched: watch the canonical inbox.
    let inbox = folders.inbox.canonicalize().unwrap_or_else(|_| folders.inbox.clone());
    let work =
        WorkDir::create(&folders.work).map_err(|source| DaemonError::Work { path: folders.work.clone(), source })?;
    let workers = match watch.workers {
        0 => std::thread::available_parallelism().map_or(2, |n| n.get()),
        n => n,
    };
    let (watcher, mut events) = watcher::watch_inbox(&inbox, &watch)?;
    // Temporary files go to the daemon's private folder: none is ever seen in
    // an output folder (a web server listing pgn/), even after a kill -9.
    let staging = Staging { fsync: watch.fsync, scratch: work.scratch().ok() };
    let games = Arc::new(games::Games::new(&folders.state));
    let pairings = Arc::new(pairings::Pairings::new(&folders.state));
    let from_config = pairings.start(folders.pairings.as_deref(), options.max_file_bytes);
    let folders = Folders { inbox: inbox.clone(), ..folders };
    let cfg = ProcessConfig { folders, options, staging, games, pairings, scores: Arc::default() };
    if let Some((bytes, t)) = from_config {
        load_config_pairings(&cfg, &bytes, t);
    }
    log_start(&cfg.folders, &work, workers, &watch);

    let mut pool = Pool { running: JoinSet::new(), size: workers, cfg: Arc::new(cfg), work: Arc::new(work) };
    let mut state = State::new(inbox, &watch);
    state.rejected = pool.cfg.folders.rejected.clone();
    // A re-read the pairings owe (the config's pairings just loaded, or a
    // daemon killed in the middle of one) is done first.
    if pool.cfg.pairings.abandoned() {
        state.push(Job::Rematch);
    }
    state.recover(&pool.work);
    state.sweep(&pool.cfg.folders);
    state.scan();
    serve(&mut state, &mut pool, &mut events, shutdown, &watch).await;
    drop(watcher);
    stop(&mut state, &mut pool, Duration::from_secs(watch.stop_timeout_secs)).await;
    Ok(state.summary)
}

/// The config's pairings, newer than those kept: loaded, the re-read they
/// owe kept for the first job.
fn load_config_pairings(cfg: &ProcessConfig, bytes: &[u8], t: crate::pairing::Tournament) {
    let (path, event, players) = (cfg.folders.pairings.clone().unwrap_or_default(), t.name.clone(), t.players.len());
    let loaded = match cfg.pairings.hold() {
        Ok(_turn) => rematch::load(cfg, bytes, t).map(drop).map_err(|e| e.to_string()),
        Err(e) => Err(e.to_string()),
    };
    match loaded {
        Ok(_) => info!(file = %path.display(), %event, players, "pairings loaded from the config"),
        Err(e) => error!(file = %path.display(), error = %e, "cannot keep the pairings in the state folder"),
    }
}

fn log_start(folders: &Folders, work: &WorkDir, workers: usize, watch: &Watch) {
    info!(
        inbox = %folders.inbox.display(),
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
}

/// The daemon's loop, until `shutdown` completes: starts queued jobs while a
/// worker is free, and answers whatever comes first (an event, a job ended,
/// a tick, the time for a scan).
async fn serve(
    state: &mut State,
    pool: &mut Pool,
    events: &mut Events,
    shutdown: impl Future<Output = ()>,
    watch: &Watch,
) {
    let mut tick = tokio::time::interval(TICK);
    let mut scan = tokio::time::interval(Duration::from_secs(watch.scan_interval_secs.max(1)));
    let mut progress = tokio::time::interval(PROGRESS);
    let retry = Duration::from_secs(watch.retry_secs);
    tokio::pin!(shutdown);
    loop {
        pool.fill(&mut state.queue);
        tokio::select! {
            () = &mut shutdown => break,
            Some(event) = events.recv() => state.event(event),
            Some(joined) = pool.running.join_next(), if !pool.running.is_empty() => {
                state.ended(joined, &pool.cfg, Some(retry));
            }
            _ = tick.tick() => state.tick(Instant::now()),
            _ = scan.tick() => {
                state.scan();
                state.recover(&pool.work);
                state.sweep(&pool.cfg.folders);
                // Another daemon on the folders killed in a TRF's re-read.
                if pool.cfg.pairings.abandoned() {
                    state.push(Job::Rematch);
                }
            }
            _ = progress.tick() => state.log_progress(pool.running.len()),
        }
    }
}

/// Waits up to `timeout` for the jobs in progress; those still running then
/// stay claimed, for the next start.
async fn stop(state: &mut State, pool: &mut Pool, timeout: Duration) {
    info!(in_progress = pool.running.len(), "stopping: no new files taken");
    let finished = tokio::time::timeout(timeout, async {
        while let Some(joined) = pool.running.join_next().await {
            state.ended(joined, &pool.cfg, None);
        }
    })
    .await;
    if finished.is_err() {
        warn!(
            in_progress = pool.running.len(),
            "stop timeout: files still in progress stay claimed and are finished at the next start"
        );
    }
    let s = state.split_now(&pool.cfg);
    state.summary = s;
    info!(
        done = s.done,
        pgn = s.pgn,
        review = s.review,
        rejected = s.rejected,
        waiting = state.waiting() + pool.running.len(),
        retried = s.retried,
        "stopped"
    );
}

/// The workers: at most `size` jobs at once, each on a thread of its own.
struct Pool {
    running: JoinSet<Ended>,
    size: usize,
    cfg: Arc<ProcessConfig>,
    work: Arc<WorkDir>,
}

impl Pool {
    /// Starts jobs from the front of `queue` while a worker is free.
    fn fill(&mut self, queue: &mut VecDeque<Job>) {
        while self.running.len() < self.size
            && let Some(job) = queue.pop_front()
        {
            let (cfg, work) = (self.cfg.clone(), self.work.clone());
            self.running.spawn_blocking(move || run_job(&cfg, &work, job));
        }
    }
}

/// A folder dropped into the inbox: moved whole to rejected/ (nothing in it
/// is read: the daemon takes files, and a folder's files may be of another
/// event or still being copied) under a free name, with its `.error.txt`
/// saying so. Its files are not lost: they are in rejected/ as dropped.
fn folder_out(path: &Path, rejected: &Path) {
    let name = path.file_name().unwrap_or_default();
    let shown = name.to_string_lossy().into_owned();
    let free =
        (1..100).map(|k| rejected.join(names::numbered_os(name, k))).find(|p| std::fs::symlink_metadata(p).is_err());
    let Some(to) = free else { return };
    if let Err(e) = std::fs::rename(path, &to) {
        warn!(folder = %shown, error = %e, "a folder in the inbox is not read, and cannot be moved to rejected/");
        return;
    }
    let why = format!(
        "{shown}: a folder, not a file: the daemon reads the files dropped into the inbox, not folders. \
         Drop the sheets it holds themselves; the folder is kept here as it came.\n"
    );
    let mut note = to.clone().into_os_string();
    note.push(".error.txt");
    if let Err(e) = crate::emit::file::create_new(Path::new(&note), why.as_bytes(), false) {
        warn!(folder = %shown, error = %e, "cannot write why the folder was not read");
    }
    warn!(folder = %shown, to = %to.display(), "a folder dropped into the inbox: moved to rejected/, not read");
}

/// The files the daemon knows of and what is to become of them.
struct State {
    /// The canonical inbox.
    inbox: PathBuf,
    detector: Detector,
    queue: VecDeque<Job>,
    /// Names queued, running or waiting for a retry: one file of a name at a time.
    names: HashSet<OsString>,
    retries: Vec<(Instant, Job)>,
    summary: Summary,
    /// The summary as last logged: a progress line is written when it moved.
    logged: Summary,
    /// Links, pipes and devices that could not be moved out of the inbox:
    /// said once, not taken again while they stay such.
    stuck: HashSet<OsString>,
    settle: Duration,
    /// Where a folder dropped into the inbox goes, with why.
    rejected: PathBuf,
    /// The records of the games published in this run, and how many files
    /// could not be read: the split at the stop, where those games are then.
    published: HashSet<String>,
    unread: usize,
}

impl State {
    fn new(inbox: PathBuf, watch: &Watch) -> State {
        State {
            detector: Detector::new(
                inbox.clone(),
                Duration::from_millis(watch.settle_ms),
                Duration::from_secs(watch.stale_open_secs),
            ),
            inbox,
            queue: VecDeque::new(),
            names: HashSet::new(),
            retries: Vec::new(),
            summary: Summary::default(),
            logged: Summary::default(),
            stuck: HashSet::new(),
            settle: Duration::from_millis(watch.settle_ms),
            rejected: PathBuf::new(),
            published: HashSet::new(),
            unread: 0,
        }
    }

    fn push(&mut self, job: Job) {
        if let Job::Inbox(p) = &job
            && self.stuck.contains(&job.name())
        {
            // Still one that is not read, or still one the daemon's user may not read.
            let denied = std::fs::File::open(p).is_err_and(|e| e.kind() == std::io::ErrorKind::PermissionDenied);
            if detect::kind_of(p) == detect::Kind::Special || denied {
                return;
            }
            self.stuck.remove(&job.name());
        }
        if self.names.insert(job.name()) {
            self.queue.push_back(job);
        }
    }

    /// Temporary files left in the output folders by a daemon killed while
    /// writing; a live daemon's last for milliseconds.
    fn sweep(&self, folders: &Folders) {
        let removed: usize = [&folders.pgn, &folders.review, &folders.rejected, &folders.archive]
            .iter()
            .map(|d| place::sweep(d, TEMP_AGE))
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
    fn scan(&mut self) {
        let inbox = &self.inbox;
        let entries = match std::fs::read_dir(inbox) {
            Ok(e) => e,
            Err(e) => {
                error!(inbox = %inbox.display(), error = %e, "cannot list the inbox");
                return;
            }
        };
        let now = Instant::now();
        for entry in entries.flatten() {
            let name = entry.file_name();
            // A hidden folder (a sync tool's, the desktop's trash) is left alone.
            let hidden = name.to_string_lossy().starts_with('.');
            if entry.file_type().is_ok_and(|t| t.is_dir()) && !hidden && !self.rejected.as_os_str().is_empty() {
                folder_out(&entry.path(), &self.rejected);
                continue;
            }
            let special = entry.file_type().is_ok_and(|t| !t.is_file() && !t.is_dir());
            if entry.file_type().is_ok_and(|t| !t.is_dir())
                && !self.names.contains(&name)
                && !(special && self.stuck.contains(&name))
            {
                self.detector.found(&entry.path(), now);
            }
        }
    }

    /// Takes in an event of the watcher.
    fn event(&mut self, event: notify::Result<notify::Event>) {
        match event {
            Ok(event) => {
                if event.need_rescan() {
                    warn!("the watcher missed events: scanning the inbox");
                    self.scan();
                }
                let now = Instant::now();
                for path in &event.paths {
                    if self.detector.event(&event.kind, path, now) == detect::Verdict::Ready {
                        self.push(Job::Inbox(path.clone()));
                    }
                }
            }
            Err(e) => {
                warn!(error = %e, "watcher error: scanning the inbox");
                self.scan();
            }
        }
    }

    /// Queues the files that have settled by `now` and the failed ones due
    /// for a retry.
    fn tick(&mut self, now: Instant) {
        for path in self.detector.settled(now) {
            self.push(Job::Inbox(path));
        }
        let (due, later): (Vec<_>, Vec<_>) = self.retries.drain(..).partition(|(at, _)| *at <= now);
        self.retries = later;
        for (_, job) in due {
            self.names.remove(&job.name());
            self.push(job);
        }
    }

    /// The summary with its games counted where they are now: a decision,
    /// a TRF or a game's other copy may have moved them since they were
    /// published (a game joined to another's record is counted once, there).
    fn split_now(&self, cfg: &ProcessConfig) -> Summary {
        let mut s = self.summary;
        let Ok(locked) = cfg.games.lock() else { return s };
        (s.pgn, s.review, s.rejected) = (0, 0, self.unread);
        let names: Vec<&str> = self.published.iter().map(String::as_str).collect();
        let Ok(folders) = locked.folders(&names) else { return s };
        for folder in folders {
            match folder.as_str() {
                "pgn" => s.pgn += 1,
                "review" => s.review += 1,
                _ => s.rejected += 1,
            }
        }
        s
    }

    /// Files seen and not finished, but for those in progress.
    fn waiting(&self) -> usize {
        self.queue.len() + self.detector.len() + self.retries.len()
    }

    /// The split so far, while there is work and once after it: an idle
    /// daemon writes nothing.
    fn log_progress(&mut self, in_progress: usize) {
        let waiting = self.waiting();
        if waiting > 0 || in_progress > 0 || self.summary != self.logged {
            let s = self.summary;
            info!(
                done = s.done,
                pgn = s.pgn,
                review = s.review,
                rejected = s.rejected,
                waiting,
                in_progress,
                "progress"
            );
            self.logged = s;
        }
    }

    /// Takes in a finished job; a failed one is retried after `retry` (`None`
    /// while stopping: it stays claimed for the next start).
    fn ended(&mut self, joined: Result<Ended, tokio::task::JoinError>, cfg: &ProcessConfig, retry: Option<Duration>) {
        match joined {
            Ok(Ended::Done(name, out, took)) => {
                self.names.remove(&name);
                if out.left_in_inbox {
                    self.stuck.insert(name);
                }
                self.summary.count(&out);
                self.published.extend(out.records.iter().cloned());
                self.unread += usize::from(out.error.is_some());
                log_done(&out, took, cfg);
            }
            Ok(Ended::Changed(job)) => {
                info!(file = ?job.name(), "changed while it was read: read again once quiet");
                self.retries.push((Instant::now() + self.settle, job));
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

/// The line for a finished file, bounded whatever the file: findings
/// counted per code, the error cut short, the first few outputs named.
fn log_done(out: &Outcome, took: Duration, cfg: &ProcessConfig) {
    let root = cfg.folders.pgn.parent().unwrap_or(Path::new(""));
    let mut outputs: Vec<String> =
        out.outputs.iter().take(LOG_OUTPUTS).map(|p| p.strip_prefix(root).unwrap_or(p).display().to_string()).collect();
    if out.outputs.len() > LOG_OUTPUTS {
        outputs.push(format!("… {} more", out.outputs.len() - LOG_OUTPUTS));
    }
    info!(
        file = %out.name,
        to = %out.routed(),
        ms = took.as_millis() as u64,
        findings = %finding_counts(out),
        error = %out.error.as_deref().map(|e| cut(e, LOG_ERROR)).unwrap_or_default(),
        outputs = %outputs.join(", "),
        "done"
    );
}

/// `ambiguous-repair×3, typo-repaired×1`: the most frequent first.
fn finding_counts(out: &Outcome) -> String {
    let mut counts: Vec<(&str, usize)> = out.findings.iter().map(|(k, v)| (*k, *v)).collect();
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    counts.iter().map(|(k, n)| format!("{k}×{n}")).collect::<Vec<_>>().join(", ")
}

/// One job on a worker thread. A panic (a bug: bad input must never cause
/// one) is caught so that the file is rejected, not retried forever.
fn run_job(cfg: &ProcessConfig, work: &WorkDir, job: Job) -> Ended {
    let start = Instant::now();
    if let Job::Rematch = &job {
        return match rematch::resume(cfg) {
            Ok(_) => Ended::Gone(job.name()),
            Err(e) => Ended::Failed(job.clone(), e),
        };
    }
    let claimed = match &job {
        Job::Inbox(p) => match work.claim(p) {
            Ok(Some(c)) => c,
            Ok(None) => return Ended::Gone(job.name()),
            Err(source) => return Ended::Failed(job.clone(), FileError { path: p.clone(), source }),
        },
        // A claimed file removed by hand is gone, not retried.
        Job::Claimed(c) if std::fs::symlink_metadata(c).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound) => {
            return Ended::Gone(job.name());
        }
        Job::Claimed(c) => c.clone(),
        Job::Rematch => return Ended::Gone(job.name()),
    };
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| process::process(cfg, &claimed)))
        .unwrap_or_else(|_| {
            process::reject_file(cfg, &claimed, "internal error while reading the file; please report it").map(Some)
        });
    match result {
        Ok(Some(out)) => Ended::Done(job.name(), out, start.elapsed()),
        Ok(None) => Ended::Changed(Job::Claimed(claimed)),
        Err(e) => Ended::Failed(Job::Claimed(claimed), e),
    }
}
