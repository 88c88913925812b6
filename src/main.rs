//! The `scoresheet` command: a thin layer over the library. `convert` reads
//! files, writes outputs atomically and sets the exit status; `watch` runs the
//! drop-folder daemon until SIGINT or SIGTERM.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use scoresheet::config::{Config, LogFormat};
use scoresheet::convert::{Options, convert};
use scoresheet::emit::report::{FileReport, Report, Status};
use scoresheet::notation::Language;

#[derive(Parser)]
#[command(name = "scoresheet", version, about = "Typed chess scoresheets in any algebraic notation to validated PGN")]
struct Cli {
    /// Config file (YAML); fields it leaves out keep the built-in defaults (config/default.yaml).
    #[arg(long, global = true)]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Convert sheets to PGN: writes <stem>.pgn per input.
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
        Command::Convert { language, output, json, files } => {
            init_logs("warn", LogFormat::Human);
            convert_files(options, language, output, json, &files)
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
            watch_folders(scoresheet::daemon::DaemonConfig { folders, options, watch })
        }
    }
}

/// The config file given, else the built-in one.
fn load_config(path: Option<&Path>) -> Result<Config> {
    let Some(p) = path else { return Ok(Config::builtin()) };
    let text = std::fs::read_to_string(p).with_context(|| format!("cannot read config {}", p.display()))?;
    Config::parse(&text).with_context(|| format!("invalid config {}", p.display()))
}

/// Runs the daemon until SIGINT or SIGTERM.
fn watch_folders(config: scoresheet::daemon::DaemonConfig) -> Result<ExitCode> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let summary = runtime.block_on(async {
        let stop = stop_signal().context("cannot install the SIGINT/SIGTERM handlers")?;
        anyhow::Ok(scoresheet::daemon::run(config, stop).await?)
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
    let mut report = Report::default();
    let mut failed = false;
    for file in files {
        let fr = convert_one(file, &options);
        let target = if json && output.is_none() { None } else { Some(target_of(file, output.as_deref())) };
        if let (Some(target), Some(pgn)) = (&target, fr.pgn())
            && let Err(e) = scoresheet::emit::file::replace(target, pgn.as_bytes(), true)
        {
            eprintln!("{}: cannot write {}: {e:#}", file.display(), target.display());
            failed = true;
        }
        if !json {
            summarize(&fr, target.as_deref());
        }
        failed |= fr.rejected();
        report.files.push(fr);
    }
    if json {
        let mut out = std::io::stdout().lock();
        serde_json::to_writer(&mut out, &report)?;
        writeln!(out)?;
    }
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

fn convert_one(file: &Path, options: &Options) -> FileReport {
    let name = file.display().to_string();
    match std::fs::read(file) {
        Ok(bytes) => convert(&name, &bytes, options),
        Err(e) => FileReport { path: name, error: Some(format!("cannot read: {e}")), games: Vec::new() },
    }
}

/// `<stem>.pgn` in the output folder (default: beside the input). A hand-typed
/// `.pgn` beside its own output would be overwritten: that one becomes
/// `<stem>.scoresheet.pgn`, so the original is always kept.
fn target_of(file: &Path, output: Option<&Path>) -> PathBuf {
    let stem = file.file_stem().map_or_else(|| "sheet".into(), |s| s.to_os_string());
    let dir = output.map(Path::to_path_buf).unwrap_or_else(|| file.parent().map(Path::to_path_buf).unwrap_or_default());
    let target = dir.join(&stem).with_extension("pgn");
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    };
    if same(&target, file) {
        let mut name = stem;
        name.push(".scoresheet.pgn");
        dir.join(name)
    } else {
        target
    }
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
    if let (Some(t), Some(_)) = (target, fr.pgn()) {
        println!("  -> {}", t.display());
    }
}
