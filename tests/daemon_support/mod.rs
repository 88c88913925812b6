//! What the daemon tests with copies and pairings share: the real binary
//! started on a root, files dropped as copy tools drop them, the outputs read.
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

pub const DEADLINE: Duration = Duration::from_secs(400);

pub struct Daemon {
    child: Child,
    log: PathBuf,
}

pub fn start(root: &Path) -> Daemon {
    start_with(root, &[])
}

/// A daemon started on `root` with more arguments (`--config FILE`).
pub fn start_with(root: &Path, args: &[&str]) -> Daemon {
    start_via(root, &[], args)
}

/// A daemon started by `wrapper` (a command that runs the one after it, as
/// another user: `setpriv --reuid=…`), else as `start_with`.
pub fn start_via(root: &Path, wrapper: &[&str], args: &[&str]) -> Daemon {
    start_env(root, wrapper, args, &[])
}

/// A daemon started as [`start_via`] with these variables in its environment.
pub fn start_env(root: &Path, wrapper: &[&str], args: &[&str], env: &[(&str, &str)]) -> Daemon {
    let n = fs::read_dir(root.parent().unwrap()).unwrap().count();
    let log = root.parent().unwrap().join(format!("log-{n}.txt"));
    let bin = env!("CARGO_BIN_EXE_scoresheet");
    let mut command = match wrapper.split_first() {
        Some((first, rest)) => {
            let mut c = Command::new(first);
            c.args(rest).arg(bin);
            c
        }
        None => Command::new(bin),
    };
    let child = command
        .args(["watch", "--root"])
        .arg(root)
        .args(args)
        .env("RUST_LOG", "info")
        .envs(env.iter().copied())
        .stdout(Stdio::null())
        .stderr(fs::File::create(&log).unwrap())
        .spawn()
        .expect("the binary starts");
    let daemon = Daemon { child, log };
    wait_for("the daemon to watch", || daemon.log().contains("watching"));
    daemon
}

impl Daemon {
    /// The file its log goes to.
    pub fn log_path(&self) -> &Path {
        &self.log
    }

    pub fn log(&self) -> String {
        fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// SIGTERM; the exit status must be 0. Returns the log.
    pub fn stop(mut self) -> String {
        let pid = self.child.id().to_string();
        assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
        let status = self.child.wait().unwrap();
        assert!(status.success(), "exit {status:?}; log:\n{}", self.log());
        self.log()
    }

    /// Whether the process has ended (a crash point reached).
    pub fn exited(&mut self) -> bool {
        self.child.try_wait().unwrap().is_some()
    }

    pub fn kill9(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

pub fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < DEADLINE, "gave up waiting for {what}");
        sleep(Duration::from_millis(50));
    }
}

/// Files (not folders, not dotfiles) directly in `dir`.
pub fn names(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| !n.starts_with('.'))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

pub fn drop_file(inbox: &Path, name: &str, bytes: &[u8]) {
    let tmp = inbox.join(format!(".{name}.part"));
    fs::write(&tmp, bytes).unwrap();
    fs::rename(&tmp, inbox.join(name)).unwrap();
}

pub fn setup() -> (tempfile::TempDir, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("root");
    fs::create_dir(&root).unwrap();
    (t, root)
}

/// The value of tag `k` in a PGN text.
pub fn tag(pgn: &str, k: &str) -> Option<String> {
    pgn.lines().find_map(|l| Some(l.strip_prefix(&format!("[{k} \""))?.strip_suffix("\"]")?.to_string()))
}

/// The per-game PGN files of `dir` (not its round files), as (name, text).
pub fn games_in(dir: &Path) -> Vec<(String, String)> {
    names(dir)
        .into_iter()
        .filter(|n| n.ends_with(".pgn"))
        .map(|n| {
            let text = fs::read_to_string(dir.join(&n)).unwrap();
            (n, text)
        })
        .collect()
}

/// The games of every round file under pgn/, as their PGN texts.
pub fn round_file_games(pgn: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for event in fs::read_dir(pgn).unwrap().flatten().filter(|e| e.path().is_dir()) {
        for f in names(&event.path()).into_iter().filter(|f| f.ends_with(".pgn")) {
            let text = fs::read_to_string(event.path().join(f)).unwrap();
            out.extend(text.split("\n\n[Event ").filter(|g| !g.trim().is_empty()).map(str::to_string));
        }
    }
    out
}

/// A text sheet of `sans`' first `plies` moves under `headers`, with `tail`
/// after them.
pub fn typed_sheet(headers: &str, sans: &[String], plies: usize, tail: &str) -> String {
    let mut s = format!("{headers}\n");
    for (i, san) in sans.iter().take(plies).enumerate() {
        if i % 2 == 0 {
            s.push_str(&format!("{}. ", i / 2 + 1));
        }
        s.push_str(san);
        s.push(' ');
    }
    s.push_str(tail);
    s.push('\n');
    s
}

/// A PGN's moves and result, without its tags and comments (which name the
/// findings), on one line.
pub fn moves_of(pgn: &str) -> String {
    let text: String = pgn.lines().filter(|l| !l.starts_with('[')).collect::<Vec<_>>().join(" ");
    let mut depth = 0;
    let text: String = text
        .chars()
        .filter(|&c| {
            depth += i32::from(c == '{') - i32::from(c == '}');
            depth == 0 && c != '}'
        })
        .collect();
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A figure of the daemon's records under `root` (`.state/games.db`): the
/// first column of the first row `query` gives; 0 where there are none yet.
pub fn records_figure(root: &Path, query: &str) -> i64 {
    let db = root.join(".state").join("games.db");
    if !db.exists() {
        return 0;
    }
    let conn = rusqlite::Connection::open(&db).unwrap_or_else(|e| panic!("{}: {e}", db.display()));
    conn.busy_timeout(std::time::Duration::from_secs(30)).unwrap();
    conn.query_row(query, [], |r| r.get::<_, Option<i64>>(0)).ok().flatten().unwrap_or(0)
}

/// How many records the daemon wrote as pending and has not made final.
pub fn pending_records(root: &Path) -> usize {
    records_figure(root, "SELECT COUNT(*) FROM record WHERE pending = 1") as usize
}

/// How many changes the daemon's records have seen.
pub fn record_changes(root: &Path) -> usize {
    records_figure(root, "SELECT value FROM meta WHERE key = 'changes'") as usize
}
