//! The YAML config. `config/default.yaml` ships with the crate and is built in:
//! every field has a default, and a file given with `--config` overrides only
//! the fields it names.

use std::path::PathBuf;

use serde::Deserialize;

use crate::convert::Options;
use crate::cost::Params;
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
    /// Costs and limits of the repair search (see `cost::Params`).
    pub repair: Params,
    /// The drop-folder daemon (`scoresheet watch`).
    pub watch: Watch,
    /// Logging.
    pub log: Log,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            language: None,
            max_file_bytes: Options::default().max_file_bytes,
            repair: Params::default(),
            watch: Watch::default(),
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

/// Log settings. `RUST_LOG`, when set, wins over `level`.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Log {
    /// A tracing filter: `info`, `debug`, `scoresheet=debug` ...
    pub level: String,
    /// `human` or `json` (`--log-format` overrides it).
    pub format: LogFormat,
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
    /// ```
    pub fn parse(text: &str) -> Result<Config, ConfigError> {
        if text.trim().is_empty() {
            return Ok(Config::default());
        }
        serde_yaml::from_str(text)
            .map_err(|e| ConfigError::Syntax { line: e.location().map_or(1, |l| l.line()), message: e.to_string() })
    }

    /// The conversion options this config gives.
    pub fn options(&self) -> Result<Options, ConfigError> {
        let language = match &self.language {
            Some(l) => Some(Language::find(l).ok_or_else(|| ConfigError::UnknownLanguage(l.clone()))?),
            None => None,
        };
        Ok(Options { language, max_file_bytes: self.max_file_bytes, params: self.repair })
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
