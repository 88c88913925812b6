//! The YAML config. `config/default.yaml` ships with the crate and is built in:
//! every field has a default, and a file given with `--config` overrides only
//! the fields it names.
//!
//! Every number has a range and every word its values, each stated once, in
//! the `check` beside the struct that holds the field (here, and in
//! `cost.rs` for `repair:`, both with `bounds`). A value outside is refused when the config is
//! read, with its line and what is allowed: a config is refused at start, not
//! found wrong on the hundredth sheet.

use std::path::PathBuf;

use serde::Deserialize;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};

pub use crate::bounds::Invalid;
use crate::bounds::within;
use crate::convert::Options;
use crate::cost::Params;
use crate::finding::ReportLanguage;
use crate::notation::Language;

/// The built-in config: the text of `config/default.yaml`.
pub const DEFAULT_YAML: &str = include_str!("../config/default.yaml");

/// The settings a config file can give.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// Piece letters for sheets without a `Language:` header (ISO code or
    /// name); absent: inferred per sheet.
    pub language: Option<String>,
    /// Largest file accepted, in bytes.
    pub max_file_bytes: usize,
    /// The language of the findings' messages, `en` or `es` (see
    /// [`ReportLanguage`]): in the JSON report, the PGN comments and the
    /// daemon's review files. The codes are the same in both.
    pub report_language: String,
    /// Costs and limits of the repair search (see `cost::Params`).
    pub repair: Params,
    /// The drop-folder daemon (`scoresheet watch`).
    pub watch: Watch,
    /// The arbiter's desk, served by `scoresheet watch` and `scoresheet desk`.
    pub desk: Desk,
    /// The rounds as a live broadcast polls them (`/broadcast/`).
    pub broadcast: Broadcast,
    /// Logging.
    pub log: Log,
}

impl Config {
    /// The range of each field (the `repair:` ones in `cost.rs`).
    pub fn check(&self) -> Result<(), Invalid> {
        // 64 MiB: a typed sheet is a few kilobytes, and a file is read whole
        // into memory, several times over while it is decoded and split.
        within("max_file_bytes", self.max_file_bytes, 1, 64 << 20)?;
        if let Some(l) = &self.language
            && Language::find(l).is_none()
        {
            let codes: Vec<&str> = crate::notation::LANGUAGES.iter().map(|l| l.code).collect();
            return Err(Invalid::new(
                "language",
                format!("\"{l}\""),
                format!("an ISO code or a name of one of {}", codes.join(", ")),
            ));
        }
        self.report_language()?;
        self.watch.check()?;
        self.desk.check()?;
        self.broadcast.check(&self.desk)?;
        self.log.check()?;
        self.repair.check()
    }
}

impl Config {
    /// The language `report_language` names.
    fn report_language(&self) -> Result<ReportLanguage, Invalid> {
        ReportLanguage::from_code(&self.report_language).ok_or_else(|| {
            let codes: Vec<&str> = ReportLanguage::ALL.iter().map(|l| l.code()).collect();
            Invalid::new("report_language", format!("\"{}\"", self.report_language), codes.join(" or "))
        })
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            language: None,
            max_file_bytes: Options::default().max_file_bytes,
            report_language: ReportLanguage::default().code().to_string(),
            repair: Params::default(),
            watch: Watch::default(),
            desk: Desk::default(),
            broadcast: Broadcast::default(),
            log: Log::default(),
        }
    }
}

/// Folders and timings of `scoresheet watch`. Relative folders are under `root`.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Watch {
    /// The folder the others are relative to (`--root` overrides it).
    pub root: PathBuf,
    /// Where sheets are dropped.
    pub inbox: PathBuf,
    /// Validated games, and `<event>/round-<n>.pgn` per round.
    pub pgn: PathBuf,
    /// Games an arbiter must see: the PGN with its findings and a JSON report.
    pub review: PathBuf,
    /// Files that could not be read, each with `<name>.error.txt`.
    pub rejected: PathBuf,
    /// Every original exactly as received.
    pub archive: PathBuf,
    /// Private: files being processed, one sub-folder per running daemon.
    pub work: PathBuf,
    /// Private: which sheets were published where, so that a game's other
    /// copy arriving later replaces its outputs; and the pairings loaded.
    pub state: PathBuf,
    /// The arbiters' decisions on games, one `<name>.yaml` each: applied
    /// again whenever their game is read again.
    pub decisions: PathBuf,
    /// The tournament's pairings, a FIDE TRF-16 file (relative to `root`):
    /// loaded at start when newer than the pairings kept in `state`.
    pub pairings: Option<PathBuf>,
    /// Use polling instead of the OS's change events (network shares).
    pub poll: bool,
    /// How often the poll watcher looks, in milliseconds.
    pub poll_interval_ms: u64,
    /// A file no writer is known to have open is read once its size and
    /// modification time stayed the same this long, in milliseconds.
    pub settle_ms: u64,
    /// A file a writer opened and has not closed is read anyway once it has not
    /// changed for this long, in seconds (a missed close event).
    pub stale_open_secs: u64,
    /// A full scan of the inbox this often, in seconds, so a missed event only
    /// delays a file.
    pub scan_interval_secs: u64,
    /// Files processed at once; 0: the number of cores.
    pub workers: usize,
    /// A file that failed for a cause outside it (a full disk, a permission) is
    /// retried after this many seconds.
    pub retry_secs: u64,
    /// On SIGINT/SIGTERM, files in progress are given this long to finish, in seconds.
    pub stop_timeout_secs: u64,
    /// Outputs are flushed to disk (fsync) before they are renamed into place.
    pub fsync: bool,
}

impl Watch {
    /// The range of each number of `watch:`.
    fn check(&self) -> Result<(), Invalid> {
        // Below 50 ms a poll or a settle is a busy loop (a zero poll interval
        // spins a core in system time). A minute is the most a file should wait.
        within("watch.poll_interval_ms", self.poll_interval_ms, 50, 60_000)?;
        within("watch.settle_ms", self.settle_ms, 50, 60_000)?;
        within("watch.stale_open_secs", self.stale_open_secs, 1, 86_400)?;
        // In seconds: 1 is the least above 50 ms; a day the most.
        within("watch.scan_interval_secs", self.scan_interval_secs, 1, 86_400)?;
        // Each worker is a thread reading one file, which is CPU-bound:
        // beyond the cores they only share them, and each holds a file in
        // memory. 0 is the number of cores, whatever the machine.
        within("watch.workers", self.workers, 0, MAX_WORKERS)?;
        within("watch.retry_secs", self.retry_secs, 1, 3_600)?;
        within("watch.stop_timeout_secs", self.stop_timeout_secs, 0, 3_600)
    }
}

/// The most workers a config may ask for (`watch.workers`).
pub const MAX_WORKERS: usize = 64;

impl Default for Watch {
    fn default() -> Self {
        Watch {
            root: PathBuf::from("."),
            inbox: "inbox".into(),
            pgn: "pgn".into(),
            review: "review".into(),
            rejected: "rejected".into(),
            archive: "archive".into(),
            work: ".work".into(),
            state: ".state".into(),
            decisions: "decisions".into(),
            pairings: None,
            poll: false,
            poll_interval_ms: 500,
            settle_ms: 500,
            stale_open_secs: 60,
            scan_interval_secs: 10,
            workers: 0,
            retry_secs: 5,
            stop_timeout_secs: 30,
            fsync: true,
        }
    }
}

/// The arbiter's desk: a web page over the daemon's folders where an
/// arbiter works the review queue.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Desk {
    /// `scoresheet watch` serves the desk.
    pub enabled: bool,
    /// The address it listens on (`host:port`; port 0 picks a free one).
    pub listen: String,
    /// Needed for an address other than loopback: every request then
    /// carries it (once as `?token=`, then in a cookie).
    pub token: Option<String>,
    /// `en` or `es`; absent: the browser's language.
    pub language: Option<String>,
    /// More names the desk answers to (a request's `Host`), beside the
    /// address it listens on and, for a loopback address, `localhost`: a
    /// request naming any other host is refused (a page that points its own
    /// name at this machine is not the desk's).
    pub hosts: Vec<String>,
    /// `watch` goes on without the desk (and the feed on its address) when
    /// it cannot listen; else it stops with the error. Not given: so it
    /// does at the default address (no address was asked for), not at one
    /// the config chose ([`Desk::may_run_without`]).
    pub optional: Option<bool>,
}

/// The languages the desk's pages are written in.
pub const DESK_LANGUAGES: [&str; 2] = ["en", "es"];

impl Desk {
    /// Whether `watch` goes on without the desk when it cannot listen:
    /// `optional`, else where the config left `listen` at its default.
    pub fn may_run_without(&self) -> bool {
        self.optional.unwrap_or(self.listen == Desk::default().listen)
    }

    fn check(&self) -> Result<(), Invalid> {
        check_listen("desk.listen", &self.listen)?;
        if let Some(t) = &self.token
            && (t.len() < 16 || !t.chars().all(|c| c.is_ascii_graphic()))
        {
            return Err(Invalid::new("desk.token", "too short", "16 or more printable ASCII characters"));
        }
        check_hosts("desk.hosts", &self.hosts)?;
        match &self.language {
            Some(l) if !DESK_LANGUAGES.contains(&l.as_str()) => {
                Err(Invalid::new("desk.language", format!("\"{l}\""), DESK_LANGUAGES.join(" or ")))
            }
            _ => Ok(()),
        }
    }
}

impl Default for Desk {
    fn default() -> Self {
        Desk {
            enabled: true,
            listen: "127.0.0.1:8080".into(),
            token: None,
            language: None,
            hosts: Vec::new(),
            optional: None,
        }
    }
}

/// `listen` is an address, or a host name looked up when the server starts,
/// and a port.
fn check_listen(field: &str, listen: &str) -> Result<(), Invalid> {
    let host_and_port = listen
        .rsplit_once(':')
        .is_some_and(|(h, p)| !h.trim().is_empty() && !h.contains(char::is_whitespace) && p.parse::<u16>().is_ok());
    if listen.parse::<std::net::SocketAddr>().is_err() && !host_and_port {
        return Err(Invalid::new(
            field,
            format!("\"{listen}\""),
            "an address or host name and a port, 127.0.0.1:8080 or localhost:8080",
        ));
    }
    Ok(())
}

/// Every one of `hosts` is a host name or address without a port.
fn check_hosts(field: &str, hosts: &[String]) -> Result<(), Invalid> {
    match hosts.iter().find(|h| !is_host_name(h)) {
        Some(h) => Err(Invalid::new(
            field,
            format!("\"{h}\""),
            "host names or addresses without a port: desk.example.org, 192.168.1.20, [fd00::1]",
        )),
        None => Ok(()),
    }
}

/// The rounds served to a live broadcast: `GET /broadcast/<event>/round-<n>.pgn`
/// and the list at `/broadcast/`, read-only and public (no token), on the
/// desk's address when the desk is served and on `listen` when it is set.
#[derive(Debug, Clone, Deserialize, PartialEq, Default)]
#[serde(deny_unknown_fields, default)]
pub struct Broadcast {
    /// An address of its own (`host:port`; port 0 picks a free one): the
    /// feed alone, nothing of the desk. Any address is allowed without a
    /// token, the feed being public and read-only.
    pub listen: Option<String>,
    /// More names the feed answers to (a request's `Host`), as `desk.hosts`:
    /// the public name a broadcast reaches it by.
    pub hosts: Vec<String>,
    /// PGN's `TimeControl` (`5400+30`) for a TRF that gives none.
    pub time_control: Option<String>,
    /// `watch` goes on without the feed's own address when it cannot
    /// listen there; else it stops with the error (as `desk.optional`).
    pub optional: bool,
}

impl Broadcast {
    fn check(&self, desk: &Desk) -> Result<(), Invalid> {
        if let Some(listen) = &self.listen {
            check_listen("broadcast.listen", listen)?;
            if desk.enabled && listen.trim() == desk.listen.trim() {
                return Err(Invalid::new(
                    "broadcast.listen",
                    format!("\"{listen}\""),
                    "another address than desk.listen, or none: the desk serves the feed on its own",
                ));
            }
        }
        check_hosts("broadcast.hosts", &self.hosts)?;
        // PGN's TimeControl: `?`, `-`, or fields of digits with `+ / : *`.
        let pgn = |t: &str| {
            t == "?" || t == "-" || (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit() || b"+/:*".contains(&b)))
        };
        match &self.time_control {
            Some(t) if !pgn(t) => Err(Invalid::new(
                "broadcast.time_control",
                format!("\"{t}\""),
                "a PGN TimeControl: 5400+30, 40/7200:3600, 300, ? or -",
            )),
            _ => Ok(()),
        }
    }
}

/// Whether `h` is a host as a `Host` header names it, without its port: a
/// name of letters, digits, `-` and `.`, an IPv4 address, or an IPv6 one in
/// brackets.
fn is_host_name(h: &str) -> bool {
    if let Some(v6) = h.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        return v6.parse::<std::net::Ipv6Addr>().is_ok();
    }
    !h.is_empty() && h.len() <= 253 && h.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.')
}

/// Log settings. `RUST_LOG`, when set, wins over `level`.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Log {
    /// A tracing filter: `info`, `debug`, `scoresheet=debug` ...
    pub level: String,
    /// `human` or `json` (`--log-format` overrides it).
    pub format: LogFormat,
}

/// The levels a `log.level` directive may name.
const LEVELS: [&str; 6] = ["off", "error", "warn", "info", "debug", "trace"];

impl Log {
    /// `level` is a level or `target=level` directives, comma-separated: a
    /// tracing filter also takes a bare word as a target, so `chatty` would
    /// silently mean "everything from a module named chatty", that is nothing.
    fn check(&self) -> Result<(), Invalid> {
        let is_level = |l: &str| LEVELS.iter().any(|k| l.eq_ignore_ascii_case(k));
        let is_target = |t: &str| !t.is_empty() && t.chars().all(|c| c.is_ascii_alphanumeric() || "_:-".contains(c));
        let ok = self.level.split(',').map(str::trim).all(|d| match d.split_once('=') {
            Some((target, level)) => is_target(target.trim()) && is_level(level.trim()),
            None => is_level(d),
        });
        if ok {
            return Ok(());
        }
        Err(Invalid::new(
            "log.level",
            format!("\"{}\"", self.level),
            format!("one of {}, or target=level directives such as scoresheet=debug", LEVELS.join(", ")),
        ))
    }
}

impl Default for Log {
    fn default() -> Self {
        Log { level: "info".into(), format: LogFormat::Human }
    }
}

/// How log lines are written.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    #[default]
    Human,
    Json,
}

/// A config that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("line {line}: {message}")]
    Syntax { line: usize, message: String },
    #[error("unknown language \"{0}\"")]
    UnknownLanguage(String),
    /// A value outside its range, at its line when the config has one.
    #[error("{}{invalid}", line_prefix(*.line))]
    Invalid { line: Option<usize>, invalid: Invalid },
}

fn line_prefix(line: Option<usize>) -> String {
    line.map(|l| format!("line {l}: ")).unwrap_or_default()
}

impl Config {
    /// The built-in config (`config/default.yaml`).
    pub fn builtin() -> Config {
        Config::parse(DEFAULT_YAML).unwrap_or_default()
    }

    /// Parses a config file's text.
    ///
    /// ```
    /// use scoresheet::config::Config;
    /// let c = Config::parse("language: es\nmax_file_bytes: 2048\n").unwrap();
    /// assert_eq!(c.options().unwrap().language.unwrap().code, "es");
    /// let e = Config::parse("watch:\n  inbx: drop\n").unwrap_err();
    /// assert!(e.to_string().starts_with("line 2:") && e.to_string().contains("inbx"));
    /// let e = Config::parse("watch:\n  workers: 1000000\n").unwrap_err();
    /// assert_eq!(e.to_string(), "line 2: watch.workers is 1000000, allowed: 0 to 64");
    /// ```
    pub fn parse(text: &str) -> Result<Config, ConfigError> {
        if text.trim().is_empty() {
            return Ok(Config::default());
        }
        let config: Config = serde_yaml::from_str(text)
            .map_err(|e| ConfigError::Syntax { line: e.location().map_or(1, |l| l.line()), message: e.to_string() })?;
        config.check().map_err(|invalid| ConfigError::Invalid { line: line_of(text, &invalid.field), invalid })?;
        Ok(config)
    }

    /// The conversion options this config gives.
    pub fn options(&self) -> Result<Options, ConfigError> {
        let language = match &self.language {
            Some(l) => Some(Language::find(l).ok_or_else(|| ConfigError::UnknownLanguage(l.clone()))?),
            None => None,
        };
        let report_language = self.report_language().map_err(|invalid| ConfigError::Invalid { line: None, invalid })?;
        Ok(Options {
            language,
            max_file_bytes: self.max_file_bytes,
            params: self.repair,
            pairings: None,
            report_language,
        })
    }
}

/// The line of the value of `field` (a dotted path) in the config's text.
/// The parser gives lines only with its errors: the text is walked again down
/// the path, and the value there refused, so the error says where it is, in
/// block or flow style alike.
fn line_of(text: &str, field: &str) -> Option<usize> {
    let path: Vec<&str> = field.split('.').collect();
    let e = Locate(&path).deserialize(serde_yaml::Deserializer::from_str(text)).err()?;
    e.to_string().contains(HERE).then(|| e.location().map(|l| l.line())).flatten()
}

/// What the walk's error says, to tell it from any other.
const HERE: &str = "the value being located";

/// Walks down a path of keys, ignoring every other value.
struct Locate<'p>(&'p [&'p str]);

impl<'de> DeserializeSeed<'de> for Locate<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        match self.0.split_first() {
            Some((key, rest)) => d.deserialize_map(Walk { key, rest }),
            // Every visit of the value fails, with the value's position.
            None => d.deserialize_any(Here),
        }
    }
}

struct Walk<'p> {
    key: &'p str,
    rest: &'p [&'p str],
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "a mapping with {}", self.key)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(k) = map.next_key::<String>()? {
            if k == self.key {
                return map.next_value_seed(Locate(self.rest));
            }
            map.next_value::<IgnoredAny>()?;
        }
        Ok(())
    }
}

struct Here;

impl<'de> Visitor<'de> for Here {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(HERE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_default_yaml_is_the_built_in_default() {
        let parsed = Config::parse(DEFAULT_YAML).expect("config/default.yaml parses");
        assert_eq!(parsed, Config::default());
    }
}
