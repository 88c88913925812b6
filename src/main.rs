//! The `scoresheet` command: a thin layer over the library that reads files,
//! writes outputs atomically and sets the exit status.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use scoresheet::config::Config;
use scoresheet::convert::{Options, convert};
use scoresheet::emit::report::{FileReport, Report, Status};
use scoresheet::notation::Language;

#[derive(Parser)]
#[command(name = "scoresheet", version, about = "Typed chess scoresheets in any algebraic notation to validated PGN")]
struct Cli {
    /// Config file (YAML); without it the built-in defaults apply.
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
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()))
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("scoresheet: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    let config = match &cli.config {
        Some(p) => {
            let text = std::fs::read_to_string(p).with_context(|| format!("cannot read config {}", p.display()))?;
            Config::parse(&text).with_context(|| format!("config {}", p.display()))?
        }
        None => Config::default(),
    };
    let mut options = config.options().context("config")?;
    let Command::Convert { language, output, json, files } = cli.command;
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
    for file in &files {
        let fr = convert_one(file, &options);
        let target = if json && output.is_none() { None } else { Some(target_of(file, output.as_deref())) };
        if let (Some(target), Some(pgn)) = (&target, fr.pgn())
            && let Err(e) = write_atomic(target, pgn.as_bytes())
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

/// Writes to a temporary file beside the target, then renames it into place:
/// a reader never sees half a file.
fn write_atomic(target: &Path, bytes: &[u8]) -> Result<()> {
    let dir = target.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(target)?;
    Ok(())
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
