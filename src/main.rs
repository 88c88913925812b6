//! The `scoresheet` command: a thin layer over the library. `convert` reads
//! files, writes outputs atomically and sets the exit status; `watch` runs the
//! drop-folder daemon until SIGINT or SIGTERM.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use scoresheet::config::{Config, LogFormat};
use scoresheet::convert::{self, Options};
use scoresheet::emit::report::{FileReport, Report, Status};
use scoresheet::notation::Language;

#[derive(Parser)]
#[command(
    name = "scoresheet",
    version,
    about = "Typed chess scoresheets in any algebraic notation to validated PGN",
    after_help = EXIT_STATUS
)]
struct Cli {
    /// Config file (YAML); fields it leaves out keep the built-in defaults (config/default.yaml).
    #[arg(long, global = true)]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

/// The exit status of `convert`, as `--help` gives it.
const EXIT_STATUS: &str = "\
Exit status of convert:
  0  every game validated
  1  a file or a game rejected (or an output not written); the other files are still converted
  2  usage or config error: nothing converted
  3  a game for review (an arbiter must look), none rejected";

#[derive(Subcommand)]
enum Command {
    /// Convert sheets to PGN: writes <stem>.pgn per input, never over a file
    /// that is there (that one's output gets a new name, said on stderr).
    #[command(after_help = EXIT_STATUS)]
    Convert {
        /// Piece letters of sheets without a Language header (ISO code or name).
        #[arg(long)]
        language: Option<String>,
        /// Folder for the PGN files (default: beside each input; with --json, none unless given).
        #[arg(long)]
        output: Option<PathBuf>,
        /// Print the report as one JSON document on stdout.
        #[arg(long)]
        json: bool,
        /// Replace files that were there before the run (never an input, never
        /// an output of this run); without it their outputs get a new name.
        #[arg(long)]
        force: bool,
        /// The tournament's pairings, a FIDE TRF-16 file: each sheet is matched to
        /// its game, and the PGN takes the TRF's names, ratings, round and board.
        #[arg(long, value_name = "FILE")]
        pairings: Option<PathBuf>,
        /// The sheets: .txt, .yaml/.yml, .csv/.tsv, .pgn
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Watch a drop folder: sheets dropped into inbox/ become PGN in pgn/,
    /// review/ or rejected/, and the originals go to archive/.
    Watch {
        /// Put every folder under DIR (default: the config's root, the current folder).
        #[arg(long)]
        root: Option<PathBuf>,
        /// Poll the inbox instead of waiting for the OS's events (network shares).
        #[arg(long)]
        poll: bool,
        /// Log lines as human-readable text or as JSON (default: the config's).
        #[arg(long, value_enum)]
        log_format: Option<LogFormatArg>,
    },
    /// Serve the arbiter's desk alone over a daemon's folders (`watch`
    /// serves it too, unless `desk.enabled: false`).
    Desk {
        /// The daemon's root (default: the config's root, the current folder).
        #[arg(long)]
        root: Option<PathBuf>,
        /// The address to listen on (default: the config's desk.listen, 127.0.0.1:8080).
        #[arg(long)]
        listen: Option<String>,
    },
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum LogFormatArg {
    Human,
    Json,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("scoresheet: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Logs go to stderr; `RUST_LOG` wins over the level given.
fn init_logs(level: &str, format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(level));
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()));
    match format {
        LogFormat::Human => logs.init(),
        LogFormat::Json => logs.json().init(),
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    let config = load_config(cli.config.as_deref())?;
    let options = config.options().context("config")?;
    match cli.command {
        Command::Convert { language, output, json, force, pairings, files } => {
            init_logs("warn", LogFormat::Human);
            let (options, refused) = with_pairings(options, pairings.as_deref());
            let mut code = convert_files(options, language, output, json, force, &files)?;
            if refused {
                // A file refused, as the exit statuses say (1 wins over 3 and 0).
                code = ExitCode::from(1);
            }
            Ok(code)
        }
        Command::Watch { root, poll, log_format } => {
            let format = match log_format {
                Some(LogFormatArg::Human) => LogFormat::Human,
                Some(LogFormatArg::Json) => LogFormat::Json,
                None => config.log.format,
            };
            init_logs(&config.log.level, format);
            let mut watch = config.watch.clone();
            watch.poll |= poll;
            let folders = scoresheet::daemon::Folders::new(&watch, root.as_deref());
            let desk = config.desk.clone();
            // A desk that may not listen where it is told stops the start, before anything is read.
            let listener = if desk.enabled { Some(desk_listener(&desk, true)?) } else { None };
            watch_folders(scoresheet::daemon::DaemonConfig { folders, options, watch }, desk, listener.flatten())
        }
        Command::Desk { root, listen } => {
            init_logs(&config.log.level, config.log.format);
            let mut desk = config.desk.clone();
            if let Some(l) = listen {
                desk.listen = l;
            }
            let watch = config.watch.clone();
            let folders = scoresheet::daemon::Folders::new(&watch, root.as_deref());
            let listener = desk_listener(&desk, false)?.context("the desk cannot start")?;
            serve_desk(scoresheet::daemon::DaemonConfig { folders, options, watch }, desk, listener)
        }
    }
}

/// The desk's socket. Refused (an error: exit 2): an address other than
/// loopback without a token. An address in use: for `watch` (`lenient`)
/// said and the daemon goes on without the desk, converting being its job.
fn desk_listener(desk: &scoresheet::config::Desk, lenient: bool) -> Result<Option<std::net::TcpListener>> {
    use scoresheet::daemon::desk::{DeskError, bind};
    match bind(desk) {
        Ok(l) => Ok(Some(l)),
        Err(e @ DeskError::Bind { .. }) if lenient => {
            tracing::warn!(error = %e, "the desk is not served; the daemon goes on without it");
            Ok(None)
        }
        Err(e) => Err(e.into()),
    }
}

/// Serves the desk alone until SIGINT or SIGTERM.
fn serve_desk(
    config: scoresheet::daemon::DaemonConfig,
    desk: scoresheet::config::Desk,
    listener: std::net::TcpListener,
) -> Result<ExitCode> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async {
        let stop = stop_signal().context("cannot install the SIGINT/SIGTERM handlers")?;
        scoresheet::daemon::desk::serve(listener, &desk, &config, stop).await.context("the desk stopped")
    })?;
    Ok(ExitCode::SUCCESS)
}

/// The options with the pairings file loaded, and whether it was refused: a
/// broken TRF is said on stderr (its line and field) and the sheets are read
/// without it.
fn with_pairings(mut options: Options, path: Option<&Path>) -> (Options, bool) {
    let Some(path) = path else { return (options, false) };
    let loaded = read_regular(path, options.max_file_bytes)
        .and_then(|bytes| scoresheet::pairing::Tournament::parse(&bytes).map_err(|e| e.to_string()));
    match loaded {
        Ok(t) => {
            options.pairings = Some(std::sync::Arc::new(t));
            (options, false)
        }
        Err(e) => {
            eprintln!("{}: {e}; the sheets are read without pairings", path.display());
            (options, true)
        }
    }
}

/// The config file given, else the built-in one.
fn load_config(path: Option<&Path>) -> Result<Config> {
    let Some(p) = path else { return Ok(Config::builtin()) };
    let text = std::fs::read_to_string(p).with_context(|| format!("cannot read config {}", p.display()))?;
    Config::parse(&text).with_context(|| format!("invalid config {}", p.display()))
}

/// Runs the daemon until SIGINT or SIGTERM, with the desk on the same
/// runtime when it has a socket.
fn watch_folders(
    config: scoresheet::daemon::DaemonConfig,
    desk: scoresheet::config::Desk,
    listener: Option<std::net::TcpListener>,
) -> Result<ExitCode> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let summary = runtime.block_on(async {
        let stop = stop_signal().context("cannot install the SIGINT/SIGTERM handlers")?;
        // The desk stops when the daemon does.
        let (done, stopped) = tokio::sync::oneshot::channel::<()>();
        let served = listener.map(|l| {
            let (config, desk) = (config.clone(), desk.clone());
            tokio::spawn(async move {
                let stopped = async {
                    let _ = stopped.await;
                };
                if let Err(e) = scoresheet::daemon::desk::serve(l, &desk, &config, stopped).await {
                    tracing::error!(error = %e, "the desk stopped; the daemon goes on");
                }
            })
        });
        let summary = scoresheet::daemon::run(config, stop).await;
        let _ = done.send(());
        if let Some(s) = served {
            let _ = tokio::time::timeout(std::time::Duration::from_secs(2), s).await;
        }
        anyhow::Ok(summary?)
    })?;
    // Workers still busy after the stop timeout are not waited for:
    // their files stay claimed and are finished at the next start.
    runtime.shutdown_timeout(std::time::Duration::from_millis(100));
    tracing::debug!(done = summary.done, "exit");
    Ok(ExitCode::SUCCESS)
}

/// A future that completes on SIGINT or SIGTERM. The handlers are installed
/// here, at once: a signal that comes while the daemon starts up is not lost.
fn stop_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate())?;
    let mut interrupt = signal(SignalKind::interrupt())?;
    Ok(async move {
        tokio::select! {
            _ = term.recv() => {}
            _ = interrupt.recv() => {}
        }
    })
}

fn convert_files(
    mut options: Options,
    language: Option<String>,
    output: Option<PathBuf>,
    json: bool,
    force: bool,
    files: &[PathBuf],
) -> Result<ExitCode> {
    if let Some(l) = language {
        options.language = Some(
            Language::find(&l)
                .with_context(|| format!("unknown language \"{l}\" (give an ISO code such as es, de, fr)"))?,
        );
    }
    if let Some(dir) = &output {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create output folder {}", dir.display()))?;
    }
    let mut outputs = Outputs::new(force, files);
    let mut report = Report::default();
    let mut outcome = Outcome::default();
    let inputs: Vec<convert::Input> =
        files.iter().map(|f| (f.display().to_string(), read_regular(f, options.max_file_bytes))).collect();
    let (reports, notes) = convert::convert_together(&inputs, &options);
    // Each file with a game in review: its page's name, and the file's index in `report`.
    let mut review_pages: Vec<(String, usize)> = Vec::new();
    for note in notes {
        eprintln!("{note}");
    }
    for (file, fr) in files.iter().zip(reports) {
        let wanted = if json && output.is_none() { None } else { Some(wanted_target(file, output.as_deref())) };
        let mut written = None;
        if let (Some(wanted), Some(pgn)) = (&wanted, fr.pgn()) {
            match outputs.write(wanted, pgn.as_bytes()) {
                Ok(placed) => {
                    if let Some(why) = &placed.renamed {
                        let done = if placed.unchanged { "already holds this PGN" } else { "written instead" };
                        eprintln!("{}: {} {why}; {} {done}", file.display(), wanted.display(), placed.path.display());
                    }
                    written = Some(placed.path);
                }
                Err(e) => {
                    eprintln!("{}: cannot write {}: {e:#}", file.display(), wanted.display());
                    outcome.rejected = true;
                }
            }
        }
        if !json {
            summarize(&fr, written.as_deref());
        }
        if let Some(dir) = output.as_deref() {
            review_pages.extend(write_review_page(&mut outputs, dir, file, &fr, &mut outcome));
        }
        outcome.add(&fr);
        report.files.push(fr);
    }
    if let Some(dir) = output.as_deref().filter(|_| !review_pages.is_empty()) {
        write_index(&mut outputs, dir, &review_pages, &report, &mut outcome);
    }
    if json {
        let mut out = std::io::stdout().lock();
        serde_json::to_writer(&mut out, &report)?;
        writeln!(out)?;
    }
    Ok(outcome.code())
}

/// `<stem>.review.html` in `dir` for a file with a game in review: the page
/// of its games (see `scoresheet::emit::page`). Its name, and the file's
/// place in the run, for the index; `None` when it has no game in review or
/// the page could not be written (said, and the run exits 1).
fn write_review_page(
    outputs: &mut Outputs,
    dir: &Path,
    file: &Path,
    fr: &FileReport,
    outcome: &mut Outcome,
) -> Option<(String, usize)> {
    let review: Vec<_> = fr.games.iter().filter(|g| g.status == Status::Review).cloned().collect();
    if review.is_empty() {
        return None;
    }
    let stem = file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let wanted = dir.join(format!("{stem}.review.html"));
    let html = scoresheet::emit::page::review_page(&fr.path, &review);
    match outputs.write(&wanted, html.as_bytes()) {
        Ok(placed) => {
            let name = placed.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            Some((name, outcome.files))
        }
        Err(e) => {
            eprintln!("{}: cannot write {}: {e:#}", file.display(), wanted.display());
            outcome.rejected = true;
            None
        }
    }
}

/// `index.html` in `dir`, listing the run's review pages.
fn write_index(outputs: &mut Outputs, dir: &Path, pages: &[(String, usize)], report: &Report, outcome: &mut Outcome) {
    use scoresheet::emit::page::{Listed, index_page};
    let listed: Vec<Listed> = pages
        .iter()
        .map(|(page, i)| {
            let fr = &report.files[*i];
            let games = fr.games.iter().filter(|g| g.status == Status::Review).collect();
            Listed { page: page.clone(), file: fr.path.clone(), games }
        })
        .collect();
    let wanted = dir.join("index.html");
    if let Err(e) = outputs.write(&wanted, index_page(&listed).as_bytes()) {
        eprintln!("cannot write {}: {e:#}", wanted.display());
        outcome.rejected = true;
    }
}

/// What the exit status says: [`EXIT_STATUS`].
#[derive(Default)]
struct Outcome {
    rejected: bool,
    review: bool,
    /// Files counted so far.
    files: usize,
}

impl Outcome {
    fn add(&mut self, fr: &FileReport) {
        self.files += 1;
        self.rejected |= fr.rejected();
        self.review |= fr.games.iter().any(|g| g.status == Status::Review);
    }

    fn code(&self) -> ExitCode {
        match (self.rejected, self.review) {
            (true, _) => ExitCode::from(1),
            (false, true) => ExitCode::from(3),
            (false, false) => ExitCode::SUCCESS,
        }
    }
}

/// The bytes of a file named on the command line (at most one past `limit`: the reader refuses a file
/// over it, and a file that grows is not read without end), or why not.
/// Only a regular file is opened: a FIFO would block the run until someone
/// writes to it, a device may never end, and a folder is no sheet.
fn read_regular(file: &Path, limit: usize) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let cannot = |e: std::io::Error| format!("cannot read: {e}");
    let meta = std::fs::metadata(file).map_err(cannot)?;
    if !meta.is_file() {
        return Err(format!("not a regular file ({}); not read", kind_of(&meta.file_type())));
    }
    let size = usize::try_from(meta.len()).unwrap_or(usize::MAX);
    if size > limit {
        return Err(scoresheet::IngestError::TooLarge { size, limit }.to_string());
    }
    let handle = std::fs::File::open(file).map_err(cannot)?;
    // Checked again on the file opened: the name may have been given to
    // another file since.
    let meta = handle.metadata().map_err(cannot)?;
    if !meta.is_file() {
        return Err(format!("not a regular file ({}); not read", kind_of(&meta.file_type())));
    }
    let mut bytes = Vec::with_capacity(size);
    handle.take(limit as u64 + 1).read_to_end(&mut bytes).map_err(cannot)?;
    Ok(bytes)
}

fn kind_of(t: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if t.is_dir() {
        "a folder"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_block_device() || t.is_char_device() {
        "a device"
    } else {
        "not a plain file"
    }
}

/// `<stem>.pgn` in the output folder (default: beside the input): the name an
/// output gets when nothing holds it.
fn wanted_target(file: &Path, output: Option<&Path>) -> PathBuf {
    let stem = file.file_stem().map_or_else(|| "sheet".into(), |s| s.to_os_string());
    let dir = output.map(Path::to_path_buf).unwrap_or_else(|| file.parent().map(Path::to_path_buf).unwrap_or_default());
    // Pushed, not `with_extension`: `r1.b3.txt` gives `r1.b3.pgn`, not `r1.pgn`.
    let mut name = stem;
    name.push(".pgn");
    dir.join(name)
}

/// Where a run's outputs go. An output never replaces an input of the run,
/// nor an output written earlier in the run (two inputs with one stem give
/// two files), nor, unless `--force`, a file that was there before the run:
/// that one is kept and the output gets the next free name. A file already
/// holding exactly the output's bytes is left as it is (converting again
/// gives no second copy).
struct Outputs {
    force: bool,
    inputs: HashSet<PathBuf>,
    /// The files this run's outputs are in.
    claimed: HashSet<PathBuf>,
}

/// An output placed: where, why not under the name wanted, and whether
/// the file there was left as it was.
struct Placed {
    path: PathBuf,
    renamed: Option<&'static str>,
    unchanged: bool,
}

/// Past this many names tried, the output is not written (exit 1).
const MAX_NAMES: usize = 1000;

impl Outputs {
    fn new(force: bool, inputs: &[PathBuf]) -> Self {
        let inputs = inputs.iter().flat_map(|p| [identity(p), p.canonicalize().ok()]).flatten().collect();
        Outputs { force, inputs, claimed: HashSet::new() }
    }

    /// Writes `bytes` at `wanted` or the first free name after it
    /// (`<stem>.scoresheet.pgn`, then `<stem>.scoresheet-2.pgn` ...), at
    /// once (a temporary file, then a rename).
    fn write(&mut self, wanted: &Path, bytes: &[u8]) -> std::io::Result<Placed> {
        let mut renamed = None;
        for path in candidates(wanted).take(MAX_NAMES) {
            match self.holder(&path, bytes) {
                Holder::Taken(why) => renamed = renamed.or(Some(why)),
                free => {
                    let unchanged = matches!(free, Holder::Same);
                    if self.force {
                        scoresheet::emit::file::replace(&path, bytes, true)?;
                    } else if !unchanged {
                        // Taken in one step: a file made since the look is kept.
                        match scoresheet::emit::file::create_new(&path, bytes, true) {
                            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                                renamed = renamed.or(Some("already exists (--force replaces it)"));
                                continue;
                            }
                            written => written?,
                        }
                    }
                    self.claimed.extend(identity(&path));
                    return Ok(Placed { path, renamed, unchanged });
                }
            }
        }
        Err(std::io::Error::other(format!("{MAX_NAMES} names after it are taken")))
    }

    fn holder(&self, path: &Path, bytes: &[u8]) -> Holder {
        let ids = [identity(path), path.canonicalize().ok()];
        if ids.iter().flatten().any(|id| self.inputs.contains(id)) {
            return Holder::Taken("is an input of this run");
        }
        if ids.iter().flatten().any(|id| self.claimed.contains(id)) {
            return Holder::Taken("holds an earlier output of this run");
        }
        match std::fs::symlink_metadata(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Holder::Free,
            _ if self.force => Holder::Free,
            Ok(m) if m.is_file() && m.len() == bytes.len() as u64 && std::fs::read(path).is_ok_and(|b| b == bytes) => {
                Holder::Same
            }
            _ => Holder::Taken("already exists (--force replaces it)"),
        }
    }
}

/// What holds a name an output could take.
enum Holder {
    Free,
    /// A file from before the run with the very bytes of the output.
    Same,
    Taken(&'static str),
}

/// `dir/name.pgn`, `dir/name.scoresheet.pgn`, `dir/name.scoresheet-2.pgn` ...
fn candidates(wanted: &Path) -> impl Iterator<Item = PathBuf> {
    let stem = wanted.file_stem().unwrap_or_default().to_os_string();
    let wanted = wanted.to_path_buf();
    (1..).map(move |n| {
        let mut name = stem.clone();
        match n {
            1 => return wanted.clone(),
            2 => name.push(".scoresheet.pgn"),
            _ => name.push(format!(".scoresheet-{}.pgn", n - 1)),
        }
        wanted.with_file_name(name)
    })
}

/// A path's folder made absolute, with its own name: two spellings of one
/// place (`out/a.pgn`, `./out/../out/a.pgn`) are one file.
fn identity(path: &Path) -> Option<PathBuf> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    Some(dir.canonicalize().ok()?.join(path.file_name()?))
}

fn summarize(fr: &FileReport, target: Option<&Path>) {
    if let Some(e) = &fr.error {
        eprintln!("{}: rejected: {e}", fr.path);
        return;
    }
    for (i, g) in fr.games.iter().enumerate() {
        let status = match g.status {
            Status::Validated => "validated",
            Status::Review => "review",
            Status::Rejected => "rejected",
        };
        let n = if fr.games.len() > 1 { format!(" game {}", i + 1) } else { String::new() };
        println!("{}{n}: {status}, {} moves, language {}, result {}", fr.path, g.moves.len(), g.language, g.result);
        for f in &g.findings {
            if f.severity != scoresheet::finding::Severity::Info || g.status != Status::Validated {
                println!("  {:?} {}: {}", f.severity, f.code, f.message);
            }
        }
    }
    for g in fr.games.iter().filter(|g| g.copy == Some("b")) {
        if let Some([a, _]) = &g.sheets {
            println!("  read together with {a}, whose PGN holds the game");
        }
    }
    if let (Some(t), Some(_)) = (target, fr.pgn()) {
        println!("  -> {}", t.display());
    }
}
