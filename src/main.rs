//! The `scoresheet` command: a thin layer over the library. `convert` reads
//! files, writes outputs atomically and sets the exit status; `watch` runs the
//! drop-folder daemon until SIGINT or SIGTERM.

// The command's own parts (not the library's): `convert` and its outputs.
mod cli;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use scoresheet::config::{Config, LogFormat};
use scoresheet::convert::Options;

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
        /// Print the report as one JSON document on stdout, written as the games are read.
        #[arg(long, conflicts_with = "json_lines")]
        json: bool,
        /// Print the report as JSON lines on stdout: one object per game, its file in "file".
        #[arg(long)]
        json_lines: bool,
        /// Print a line for each game (its status, moves, findings) and the PGN written.
        #[arg(short, long)]
        verbose: bool,
        /// Replace files that were there before the run (never an input, never
        /// an output of this run); without it their outputs get a new name.
        #[arg(long)]
        force: bool,
        /// The tournament's pairings, a FIDE TRF-16 file: each sheet is matched to
        /// its game, and the PGN takes the TRF's names, ratings, round and board.
        #[arg(long, value_name = "FILE")]
        pairings: Option<PathBuf>,
        /// With --pairings: write the TRF again to FILE with the results of the
        /// games validated (each in both players' columns of its round, the
        /// points moved), for the pairing program; every other byte as given.
        #[arg(long, value_name = "FILE", requires = "pairings")]
        results_out: Option<PathBuf>,
        /// The sheets: .txt, .yaml/.yml, .csv/.tsv, .pgn (a PGN of any size: one
        /// over the inbox's limit is read as a collection, a game at a time)
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
        LogFormat::Human => logs.fmt_fields(printable_fields()).init(),
        LogFormat::Json => logs.json().init(),
    }
}

/// The human log's fields with their control characters escaped: a file
/// named `a\nINFO forged` cannot write a line of its own.
fn printable_fields() -> impl for<'w> tracing_subscriber::fmt::FormatFields<'w> {
    use tracing_subscriber::field::MakeExt;
    tracing_subscriber::fmt::format::debug_fn(|w, field, value| {
        let mut shown = String::new();
        for c in format!("{value:?}").chars() {
            if c.is_control() {
                shown.extend(c.escape_default());
            } else {
                shown.push(c);
            }
        }
        match field.name() {
            "message" => write!(w, "{shown}"),
            name => write!(w, "{name}={shown}"),
        }
    })
    .delimited(" ")
}

fn run(cli: Cli) -> Result<ExitCode> {
    let config = load_config(cli.config.as_deref())?;
    let options = config.options().context("config")?;
    match cli.command {
        Command::Convert { language, output, json, json_lines, verbose, force, pairings, results_out, files } => {
            init_logs("warn", LogFormat::Human);
            let (options, refused) = with_pairings(options, pairings.as_deref());
            let results = results_out.zip(pairings).filter(|_| !refused);
            let flags = cli::convert::Flags { language, output, json, json_lines, force, verbose, results };
            let mut code = cli::convert::convert_files(options, flags, &files)?;
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
            return_freed_memory();
            let mut watch = config.watch.clone();
            watch.poll |= poll;
            let folders = scoresheet::daemon::Folders::new(&watch, root.as_deref());
            let desk = config.desk.clone();
            // A desk that may not listen where it is told stops the start, before anything is read.
            let listener = if desk.enabled { Some(desk_listener(&desk, desk.may_run_without())?) } else { None };
            let broadcast = config.broadcast.clone();
            let feed = broadcast_listener(&broadcast)?;
            let servers = Servers { desk, listener: listener.flatten(), broadcast, feed };
            watch_folders(scoresheet::daemon::DaemonConfig { folders, options, watch }, servers)
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
            let broadcast = config.broadcast.clone();
            serve_desk(scoresheet::daemon::DaemonConfig { folders, options, watch }, desk, &broadcast, listener)
        }
    }
}

/// Has glibc's malloc give memory back to the system as files are done: a
/// large block straight from the system and back to it when freed, and the
/// heap's top trimmed at each free. The daemon's workers each read a file at
/// once; without this each worker's arena keeps its largest file's peak.
fn return_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets malloc's parameters; called before the
    // workers start.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 0);
    }
}

/// The desk's socket. Refused (an error: exit 2): an address other than
/// loopback without a token. An address in use: an error too, but where the
/// desk is optional (`lenient`: [`scoresheet::config::Desk::may_run_without`]),
/// said, and the daemon goes on without it.
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

/// The broadcast feed's own socket, where `broadcast.listen` is set. An
/// address that is none stops the start (exit 2); one in use too, but where
/// the feed is optional (`broadcast.optional`), said, and the daemon goes on
/// without it, as for the desk.
fn broadcast_listener(broadcast: &scoresheet::config::Broadcast) -> Result<Option<std::net::TcpListener>> {
    use scoresheet::daemon::desk::{BroadcastError, bind_broadcast};
    let Some(listen) = broadcast.listen.as_deref() else { return Ok(None) };
    match bind_broadcast(listen) {
        Ok(l) => Ok(Some(l)),
        Err(e @ BroadcastError::Bind { .. }) if broadcast.optional => {
            tracing::warn!(error = %e, "the broadcast feed is not served alone; the daemon goes on without it");
            Ok(None)
        }
        Err(e) => Err(e.into()),
    }
}

/// Serves the desk alone until SIGINT or SIGTERM.
fn serve_desk(
    config: scoresheet::daemon::DaemonConfig,
    desk: scoresheet::config::Desk,
    broadcast: &scoresheet::config::Broadcast,
    listener: std::net::TcpListener,
) -> Result<ExitCode> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async {
        let stop = stop_signal().context("cannot install the SIGINT/SIGTERM handlers")?;
        scoresheet::daemon::desk::serve(listener, &desk, broadcast, &config, stop).await.context("the desk stopped")
    })?;
    Ok(ExitCode::SUCCESS)
}

/// The options with the pairings file loaded, and whether it was refused: a
/// broken TRF is said on stderr (its line and field) and the sheets are read
/// without it.
fn with_pairings(mut options: Options, path: Option<&Path>) -> (Options, bool) {
    let Some(path) = path else { return (options, false) };
    let loaded = cli::convert::read_regular(path)
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

/// What `watch` serves beside the daemon: the desk (with the feed) and the
/// feed alone, each where it has a socket.
struct Servers {
    desk: scoresheet::config::Desk,
    listener: Option<std::net::TcpListener>,
    broadcast: scoresheet::config::Broadcast,
    feed: Option<std::net::TcpListener>,
}

/// Runs the daemon until SIGINT or SIGTERM, with the desk and the feed on
/// the same runtime where they have a socket.
fn watch_folders(config: scoresheet::daemon::DaemonConfig, servers: Servers) -> Result<ExitCode> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let summary = runtime.block_on(async {
        let stop = stop_signal().context("cannot install the SIGINT/SIGTERM handlers")?;
        // The desk and the feed stop when the daemon does.
        let (done, stopped) = tokio::sync::watch::channel(false);
        let stopped = move || {
            let mut s = stopped.clone();
            async move {
                let _ = s.wait_for(|d| *d).await;
            }
        };
        let Servers { desk, listener, broadcast, feed } = servers;
        let served = listener.map(|l| {
            let (config, desk, broadcast, stopped) = (config.clone(), desk.clone(), broadcast.clone(), stopped());
            tokio::spawn(async move {
                if let Err(e) = scoresheet::daemon::desk::serve(l, &desk, &broadcast, &config, stopped).await {
                    tracing::error!(error = %e, "the desk stopped; the daemon goes on");
                }
            })
        });
        let alone = feed.map(|l| {
            let (config, stopped) = (config.clone(), stopped());
            tokio::spawn(async move {
                if let Err(e) = scoresheet::daemon::desk::serve_broadcast(l, &broadcast, &config, stopped).await {
                    tracing::error!(error = %e, "the broadcast feed stopped; the daemon goes on");
                }
            })
        });
        let summary = scoresheet::daemon::run(config, stop).await;
        let _ = done.send(true);
        for s in [served, alone].into_iter().flatten() {
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
