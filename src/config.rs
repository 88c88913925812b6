//! The YAML config (config/scoresheet.yaml). Every field has a built-in default.

use serde::Deserialize;

use crate::convert::Options;
use crate::notation::Language;
use crate::reconstruct::search::Params;

/// The settings a config file can give.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// Piece letters for sheets without a `Language:` header (ISO code or
    /// name); absent: inferred per sheet.
    pub language: Option<String>,
    /// Largest file accepted, in bytes.
    pub max_file_bytes: usize,
    /// Costs and limits of the repair search (see `reconstruct::search::Params`).
    pub repair: Params,
}

impl Default for Config {
    fn default() -> Self {
        Config { language: None, max_file_bytes: Options::default().max_file_bytes, repair: Params::default() }
    }
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
    /// Parses a config file's text.
    ///
    /// ```
    /// use scoresheet::config::Config;
    /// let c = Config::parse("language: es\nmax_file_bytes: 2048\n").unwrap();
    /// assert_eq!(c.options().unwrap().language.unwrap().code, "es");
    /// assert!(Config::parse("langauge: es").is_err());
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
