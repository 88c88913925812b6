//! `scoresheet convert`: reads the files named, writes each one's PGN (and,
//! with `--output`, the review pages), the JSON report as it goes, and one
//! summary line. A PGN over the inbox's size limit is a collection: read,
//! judged and written one game at a time, in flat memory. The other files
//! are read together, so that a game's two copies are read as one.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::{Context, Result};
use scoresheet::convert::{self, Options};
use scoresheet::emit::report::{FileReport, GameReport, Status};
use scoresheet::notation::Language;
use tempfile::NamedTempFile;

use super::outputs::{Outputs, wanted_target};

/// What the command line asks of `convert`, besides the files.
pub(crate) struct Flags {
    pub language: Option<String>,
    pub output: Option<PathBuf>,
    pub json: bool,
    pub json_lines: bool,
    pub force: bool,
    pub verbose: bool,
    /// `--results-out` and `--pairings`: where the TRF with the results goes,
    /// and the TRF given.
    pub results: Option<(PathBuf, PathBuf)>,
}

/// Converts `files`; the exit status as `EXIT_STATUS` gives it.
pub(crate) fn convert_files(mut options: Options, flags: Flags, files: &[PathBuf]) -> Result<ExitCode> {
    if let Some(l) = &flags.language {
        options.language = Some(
            Language::find(l)
                .with_context(|| format!("unknown language \"{l}\" (give an ISO code such as es, de, fr)"))?,
        );
    }
    if let Some(dir) = &flags.output {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create output folder {}", dir.display()))?;
    }
    let started = Instant::now();
    let collections: Vec<bool> = files.iter().map(|f| is_collection(f, options.max_file_bytes)).collect();
    let mut run = Run::new(&flags, files);
    run.pairings = options.pairings.clone();
    run.progress.set_message(format!("reading {} files", files.len()));
    // A file named on the command line has no size limit: the inbox's
    // limit guards the daemon, not a person converting a collection.
    let together = Options { max_file_bytes: usize::MAX, ..options.clone() };
    let inputs: Vec<convert::Input> = files
        .iter()
        .zip(&collections)
        .filter(|(_, c)| !**c)
        .map(|(f, _)| (f.display().to_string(), read_regular(f)))
        .collect();
    let (reports, notes) = convert::convert_together(&inputs, &together);
    for note in notes {
        run.progress.suspend(|| eprintln!("{note}"));
    }
    let mut reports = reports.into_iter();
    stop_on_signal();
    for (file, collection) in files.iter().zip(collections) {
        if STOP.load(Ordering::Relaxed) {
            break;
        }
        if collection {
            run.collection(file, &options);
        } else if let Some(fr) = reports.next() {
            run.file(file, fr);
        }
    }
    run.finish(started)
}

/// Set on SIGINT or SIGTERM: the run stops before the next game (of a
/// collection) or file, names no output it has not finished and leaves no
/// temporary file.
static STOP: AtomicBool = AtomicBool::new(false);

/// Sets [`STOP`] on SIGINT or SIGTERM, from a thread of its own (a run of a
/// few files is over before it is needed; a collection's may take minutes).
fn stop_on_signal() {
    std::thread::spawn(|| {
        let Ok(runtime) = tokio::runtime::Builder::new_current_thread().enable_all().build() else { return };
        runtime.block_on(async {
            use tokio::signal::unix::{SignalKind, signal};
            let (Ok(mut term), Ok(mut interrupt)) = (signal(SignalKind::terminate()), signal(SignalKind::interrupt()))
            else {
                return;
            };
            tokio::select! {
                _ = term.recv() => {}
                _ = interrupt.recv() => {}
            }
            STOP.store(true, Ordering::Relaxed);
        });
    });
}

/// A reader that ends with an error once the run is to stop.
struct Stoppable<R>(R);

impl<R: std::io::Read> std::io::Read for Stoppable<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if STOP.load(Ordering::Relaxed) {
            return Err(std::io::Error::other("interrupted"));
        }
        self.0.read(buf)
    }
}

/// A PGN (by its name, else by its first line) over `limit` bytes, in
/// UTF-8 or an 8-bit encoding (UTF-16 is read whole: its lines cannot be cut
/// as bytes).
fn is_collection(file: &Path, limit: usize) -> bool {
    use std::io::Read;
    let Ok(meta) = std::fs::metadata(file) else { return false };
    if !meta.is_file() || meta.len() <= limit as u64 {
        return false;
    }
    // The file's head, read once: its byte order mark, and its first lines
    // where the name gives no format.
    let mut head = Vec::new();
    if std::fs::File::open(file).and_then(|f| f.take(4096).read_to_end(&mut head)).is_err()
        || head.starts_with(&[0xFF, 0xFE])
        || head.starts_with(&[0xFE, 0xFF])
    {
        return false;
    }
    let ext = file.extension().and_then(|e| e.to_str()).and_then(scoresheet::ingest::Format::from_extension);
    let format = ext.unwrap_or_else(|| scoresheet::ingest::Format::sniff(&String::from_utf8_lossy(&head)));
    format == scoresheet::ingest::Format::Pgn
}

/// The state of one run: where outputs go, the report written so far, the
/// counts for the summary and the exit status, the progress bar.
struct Run<'f> {
    flags: &'f Flags,
    outputs: Outputs,
    json: Json,
    counts: Counts,
    /// Each file with a game in review: its page's name, the file, those games.
    review_pages: Vec<(String, String, Vec<GameReport>)>,
    /// The validated games' results, for `--results-out`.
    scored: Vec<scoresheet::pairing::Scored>,
    pairings: Option<std::sync::Arc<scoresheet::pairing::Tournament>>,
    progress: indicatif::ProgressBar,
}

/// What the run did, for the summary line and the exit status.
#[derive(Default)]
struct Counts {
    files: usize,
    games: usize,
    validated: usize,
    review: usize,
    rejected: usize,
    /// Files that could not be read at all (no game of theirs counted).
    files_rejected: usize,
    /// A file not read, or an output not written.
    failed: bool,
}

impl<'f> Run<'f> {
    fn new(flags: &'f Flags, files: &[PathBuf]) -> Self {
        let json = Json::new(flags.json, flags.json_lines);
        Run {
            flags,
            outputs: Outputs::new(flags.force, files),
            json,
            counts: Counts::default(),
            review_pages: Vec::new(),
            scored: Vec::new(),
            pairings: None,
            progress: progress_bar(flags, files),
        }
    }

    /// A file read with the others: its report is ready.
    fn file(&mut self, file: &Path, fr: FileReport) {
        let mut out = FileOut::new(self, file, fr.games.len() > 1);
        match &fr.error {
            Some(e) => out.failed(self, e),
            None => {
                for g in fr.games {
                    out.game(self, g);
                }
            }
        }
        out.finish(self);
        self.progress.inc(std::fs::metadata(file).map_or(0, |m| m.len()));
    }

    /// A collection, read and written one game at a time.
    fn collection(&mut self, file: &Path, options: &Options) {
        self.progress.set_message(file.display().to_string());
        let mut out = FileOut::new(self, file, true);
        let read = open_regular(file).and_then(|f| {
            let reader = std::io::BufReader::with_capacity(1 << 16, Stoppable(self.progress.wrap_read(f)));
            convert::convert_collection(reader, options, |g| out.game(self, g)).map_err(|e| e.to_string())
        });
        if STOP.load(Ordering::Relaxed) {
            // Its PGN is not named: the temporary file goes with `out`.
            return;
        }
        if let Err(e) = read {
            out.failed(self, &e);
        }
        out.finish(self);
    }

    /// A validated game's result kept for `--results-out`, where it is of
    /// a pairing of the TRF (read together, a game's two copies give one).
    fn score(&mut self, g: &GameReport) {
        let Some(t) = self.flags.results.as_ref().and(self.pairings.as_deref()) else { return };
        if g.status != Status::Validated || g.copy == Some("b") {
            return;
        }
        if let Some(s) = scoresheet::pairing::Scored::of(t, |k| g.headers.get(k).and_then(|v| v.as_str())) {
            self.scored.push(s);
        }
    }

    /// `--results-out`: the TRF given with the validated games' results,
    /// written to a temporary name and renamed.
    fn write_results(&mut self) {
        let Some((out, given)) = &self.flags.results else { return };
        let written = read_regular(given).map_err(|e| format!("{}: {e}", given.display())).and_then(|bytes| {
            let w = scoresheet::pairing::with_results(&bytes, &self.scored);
            scoresheet::emit::replace(out, &w.bytes, false).map_err(|e| format!("{}: {e}", out.display()))?;
            Ok(w)
        });
        match written {
            Ok(w) => {
                let other = w.contradicted.len();
                let contradicted = if other > 0 {
                    format!("; {other} left as the TRF gives them (another result)")
                } else {
                    String::new()
                };
                eprintln!("{}: {} results written{contradicted}", out.display(), w.filled);
            }
            Err(e) => {
                eprintln!("cannot write the results: {e}");
                self.counts.failed = true;
            }
        }
    }

    /// Writes the index of the review pages, ends the report, says the
    /// summary; the exit status.
    fn finish(mut self, started: Instant) -> Result<ExitCode> {
        if let Some(dir) = self.flags.output.as_deref().filter(|_| !self.review_pages.is_empty()) {
            self.write_index(dir);
        }
        self.write_results();
        self.progress.finish_and_clear();
        if let Err(e) = self.json.finish() {
            eprintln!("cannot write the report: {e}");
            self.counts.failed = true;
        }
        if STOP.load(Ordering::Relaxed) {
            eprintln!("interrupted: the files not finished are not written");
            self.counts.failed = true;
        }
        let c = &self.counts;
        let n = |k: usize, one: &str, many: &str| format!("{k} {}", if k == 1 { one } else { many });
        // A file not read at all has no game: it is counted apart.
        let unread = match c.files_rejected {
            0 => String::new(),
            k => format!("; {} not read", n(k, "file", "files")),
        };
        eprintln!(
            "{}, {}: {} validated, {} for review, {} rejected{unread} ({:.1} s)",
            n(c.files, "file", "files"),
            n(c.games, "game", "games"),
            c.validated,
            c.review,
            c.rejected,
            started.elapsed().as_secs_f64()
        );
        Ok(match (c.failed || c.rejected > 0, c.review > 0) {
            (true, _) => ExitCode::from(1),
            (false, true) => ExitCode::from(3),
            (false, false) => ExitCode::SUCCESS,
        })
    }

    /// `index.html` in `dir`, listing the run's review pages.
    fn write_index(&mut self, dir: &Path) {
        use scoresheet::emit::{Listed, index_page};
        let listed: Vec<Listed> = self
            .review_pages
            .iter()
            .map(|(page, file, games)| Listed { page: page.clone(), file: file.clone(), games: games.iter().collect() })
            .collect();
        let wanted = dir.join("index.html");
        match self.outputs.write(&wanted, index_page(&listed).as_bytes()) {
            Ok(placed) => self.say_clash("the index of the review pages", &wanted, &placed),
            Err(e) => {
                self.say(&format!("cannot write {}: {e:#}", wanted.display()));
                self.counts.failed = true;
            }
        }
    }

    /// The line on stderr of an output not under the name wanted.
    fn say_clash(&self, what: &str, wanted: &Path, placed: &super::outputs::Placed) {
        if let Some(why) = &placed.renamed {
            let done = if placed.unchanged { "already holds it" } else { "written instead" };
            self.say(&format!("{what}: {} {why}; {} {done}", wanted.display(), placed.path.display()));
        }
    }

    /// A line on stderr, above the progress bar.
    fn say(&self, line: &str) {
        self.progress.suspend(|| eprintln!("{line}"));
    }

    /// A line on stdout (with `-v`, no JSON there), above the progress bar.
    fn tell(&self, line: &str) {
        if self.flags.verbose && !self.flags.json && !self.flags.json_lines {
            self.progress.suspend(|| println!("{line}"));
        }
    }
}

/// A bar of the bytes read, on a terminal, without `--json`, for more than
/// one file or a collection; hidden otherwise.
fn progress_bar(flags: &Flags, files: &[PathBuf]) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    let total: u64 = files.iter().filter_map(|f| std::fs::metadata(f).ok()).map(|m| m.len()).sum();
    let shown =
        std::io::stderr().is_terminal() && !flags.json && !flags.json_lines && (files.len() > 1 || total > 1 << 20);
    if !shown {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total);
    let style = indicatif::ProgressStyle::with_template("{msg} [{bar:30}] {bytes}/{total_bytes} ({eta})")
        .map(|s| s.progress_chars("=> "));
    if let Ok(style) = style {
        bar.set_style(style);
    }
    bar
}

/// One file's outputs as its games come: its PGN (written to a temporary
/// file, named at the end), its part of the report, its games in review.
struct FileOut {
    file: PathBuf,
    path: String,
    /// Where the PGN goes (none with `--json` and no `--output`).
    wanted: Option<PathBuf>,
    pgn: Option<BufWriter<NamedTempFile>>,
    /// Games so far, and whether they are numbered in the `-v` lines.
    games: usize,
    numbered: bool,
    review: Vec<GameReport>,
    /// An output of this file could not be written.
    broken: Option<String>,
}

impl FileOut {
    fn new(run: &mut Run, file: &Path, numbered: bool) -> Self {
        let wanted = match (&run.flags.output, run.flags.json || run.flags.json_lines) {
            (None, true) => None,
            (dir, _) => Some(wanted_target(file, dir.as_deref())),
        };
        run.counts.files += 1;
        let path = file.display().to_string();
        FileOut {
            file: file.to_path_buf(),
            path,
            wanted,
            pgn: None,
            games: 0,
            numbered,
            review: Vec::new(),
            broken: None,
        }
    }

    /// The file could not be read at all.
    fn failed(&mut self, run: &mut Run, error: &str) {
        run.say(&format!("{}: rejected: {error}", self.path));
        run.counts.failed = true;
        run.counts.files_rejected += 1;
        run.json.file_error(&self.path, error);
    }

    /// One game of the file, as soon as it is judged.
    fn game(&mut self, run: &mut Run, g: GameReport) {
        if STOP.load(Ordering::Relaxed) {
            // The rest of the file was not read: not a game of it.
            return;
        }
        self.games += 1;
        run.counts.games += 1;
        match g.status {
            Status::Validated => run.counts.validated += 1,
            Status::Review => run.counts.review += 1,
            Status::Rejected => run.counts.rejected += 1,
        }
        run.json.game(&self.path, &g);
        run.score(&g);
        if g.status != Status::Rejected && g.copy != Some("b") {
            self.pgn_game(run, &g.pgn);
        }
        self.tell(run, &g);
        if g.status == Status::Review && run.flags.output.is_some() {
            self.review.push(g);
        }
    }

    /// Adds a game's PGN to the file's, the temporary file made at the first.
    fn pgn_game(&mut self, run: &Run, pgn: &str) {
        let Some(wanted) = self.wanted.as_deref().filter(|_| self.broken.is_none()) else { return };
        let written = match &mut self.pgn {
            Some(out) => out.write_all(b"\n").and_then(|()| out.write_all(pgn.as_bytes())),
            None => run.outputs.temporary(wanted).map(BufWriter::new).and_then(|mut out| {
                out.write_all(pgn.as_bytes())?;
                self.pgn = Some(out);
                Ok(())
            }),
        };
        if let Err(e) = written {
            self.broken = Some(e.to_string());
        }
    }

    /// The `-v` lines of a game.
    fn tell(&self, run: &Run, g: &GameReport) {
        let n = if self.numbered { format!(" game {}", self.games) } else { String::new() };
        let status = match g.status {
            Status::Validated => "validated",
            Status::Review => "review",
            Status::Rejected => "rejected",
        };
        let mut lines = vec![format!(
            "{}{n}: {status}, {} moves, language {}, result {}",
            self.path,
            g.moves.len(),
            g.language,
            g.result
        )];
        // Every finding, the repairs of a validated game too (`Clf3` read as Nf3).
        for f in &g.findings {
            lines.push(format!("  {:?} {}: {}", f.severity, f.code, f.message));
        }
        if let (Some("b"), Some([a, _])) = (g.copy, &g.sheets) {
            lines.push(format!("  read together with {a}, whose PGN holds the game"));
        }
        run.tell(&lines.join("\n"));
    }

    /// Names the PGN written, writes the review page, ends the file's report.
    fn finish(mut self, run: &mut Run) {
        run.json.file_end(&self.path);
        let (Some(wanted), Some(out)) = (self.wanted.clone(), self.pgn.take()) else {
            self.review_page(run);
            return;
        };
        let placed = match (self.broken.take(), out.into_inner()) {
            (Some(e), _) => Err(e),
            (None, Err(e)) => Err(e.error().to_string()),
            (None, Ok(tmp)) => run.outputs.place(&wanted, tmp).map_err(|e| format!("{e:#}")),
        };
        match placed {
            Ok(placed) => {
                if let Some(why) = &placed.renamed {
                    let done = if placed.unchanged { "already holds this PGN" } else { "written instead" };
                    run.say(&format!("{}: {} {why}; {} {done}", self.path, wanted.display(), placed.path.display()));
                }
                run.tell(&format!("  -> {}", placed.path.display()));
            }
            Err(e) => {
                run.say(&format!("{}: cannot write {}: {e}", self.path, wanted.display()));
                run.counts.failed = true;
            }
        }
        self.review_page(run);
    }

    /// `<stem>.review.html` in the output folder for a file with a game in
    /// review: the page of those games (see `scoresheet::emit::review_page`).
    fn review_page(self, run: &mut Run) {
        let Some(dir) = run.flags.output.clone().filter(|_| !self.review.is_empty()) else { return };
        let stem = self.file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let wanted = dir.join(format!("{stem}.review.html"));
        let html = scoresheet::emit::review_page(&self.path, &self.review);
        match run.outputs.write(&wanted, html.as_bytes()) {
            Ok(placed) => {
                run.say_clash(&format!("{}: its review page", self.path), &wanted, &placed);
                let name = placed.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                run.review_pages.push((name, self.path, self.review));
            }
            Err(e) => {
                run.say(&format!("{}: cannot write {}: {e:#}", self.path, wanted.display()));
                run.counts.failed = true;
            }
        }
    }
}

/// The report on stdout as it is made: the JSON document of `--json` (the
/// shape `Report` serialises to, each game written when it is judged) or
/// the lines of `--json-lines` (one object per game, its file named in
/// `file`; a file not read, one object with its `error`).
struct Json {
    out: Option<BufWriter<std::io::Stdout>>,
    lines: bool,
    /// Files begun, and games written in the file begun last (`None`: its
    /// head is not written yet).
    files: usize,
    games: Option<usize>,
    /// Stdout could not be written to (a pipe closed): nothing more is.
    failed: Option<std::io::Error>,
}

impl Json {
    fn new(json: bool, lines: bool) -> Self {
        let out = (json || lines).then(|| BufWriter::new(std::io::stdout()));
        Json { out, lines, files: 0, games: None, failed: None }
    }

    /// The head of a file's entry, `error` in it.
    fn head(&mut self, path: &str, error: Option<&str>) -> std::io::Result<()> {
        let Some(out) = self.out.as_mut().filter(|_| !self.lines) else { return Ok(()) };
        out.write_all(if self.files == 0 { b"{\"files\":[" } else { b"," })?;
        self.files += 1;
        write!(out, "{{\"path\":{},\"error\":{},\"games\":[", quoted(path), error.map_or("null".into(), quoted))?;
        self.games = Some(0);
        Ok(())
    }

    /// Writes a game; the first error stops the report (said at the end).
    fn game(&mut self, path: &str, g: &GameReport) {
        if let Err(e) = self.write_game(path, g) {
            self.failed.get_or_insert(e);
            self.out = None;
        }
    }

    fn write_game(&mut self, path: &str, g: &GameReport) -> std::io::Result<()> {
        if self.out.is_none() {
            return Ok(());
        }
        if self.lines {
            #[derive(serde::Serialize)]
            struct Line<'a> {
                file: &'a str,
                #[serde(flatten)]
                game: &'a GameReport,
            }
            let out = self.out.as_mut().expect("checked");
            serde_json::to_writer(&mut *out, &Line { file: path, game: g })?;
            return out.write_all(b"\n");
        }
        if self.games.is_none() {
            self.head(path, None)?;
        }
        let out = self.out.as_mut().expect("checked");
        if self.games > Some(0) {
            out.write_all(b",")?;
        }
        self.games = self.games.map(|n| n + 1);
        serde_json::to_writer(&mut *out, g)?;
        Ok(())
    }

    fn file_error(&mut self, path: &str, error: &str) {
        if self.lines {
            if let Some(out) = self.out.as_mut() {
                let _ = writeln!(out, "{{\"file\":{},\"error\":{}}}", quoted(path), quoted(error));
            }
        } else if self.games.is_none() {
            let _ = self.head(path, Some(error));
        }
    }

    fn file_end(&mut self, path: &str) {
        if self.out.is_none() || self.lines {
            return;
        }
        if self.games.is_none() {
            let _ = self.head(path, None);
        }
        if let Some(out) = self.out.as_mut() {
            let _ = out.write_all(b"]}");
        }
        self.games = None;
    }

    /// Ends the report; the first error met writing it, if any.
    fn finish(mut self) -> std::io::Result<()> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        let Some(mut out) = self.out.take() else { return Ok(()) };
        if !self.lines {
            out.write_all(if self.files == 0 { b"{\"files\":[]}\n" } else { b"]}\n" })?;
        }
        out.flush()
    }
}

/// `s` as a JSON string.
fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// A file named on the command line, opened if it is a regular file, or why
/// not. Only a regular file is opened: a FIFO would block the run until
/// someone writes to it, a device may never end, and a folder is no sheet.
pub(crate) fn open_regular(file: &Path) -> Result<std::fs::File, String> {
    let cannot = |e: std::io::Error| format!("cannot read: {e}");
    let meta = std::fs::metadata(file).map_err(cannot)?;
    if !meta.is_file() {
        return Err(format!("not a regular file ({}); not read", kind_of(&meta.file_type())));
    }
    let handle = std::fs::File::open(file).map_err(cannot)?;
    // Checked again on the file opened: the name may have been given to
    // another file since.
    let meta = handle.metadata().map_err(cannot)?;
    if !meta.is_file() {
        return Err(format!("not a regular file ({}); not read", kind_of(&meta.file_type())));
    }
    Ok(handle)
}

/// The bytes of a file named on the command line, or why not: as much as
/// its size said when opened (a file that grows is not read without end).
pub(crate) fn read_regular(file: &Path) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let handle = open_regular(file)?;
    let size = handle.metadata().map_or(0, |m| m.len());
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    handle.take(size.saturating_add(1)).read_to_end(&mut bytes).map_err(|e| format!("cannot read: {e}"))?;
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
