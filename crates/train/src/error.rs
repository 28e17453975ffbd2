//! The trainer's error type, in words that say which file or setting to fix, and the file
//! writes that produce it.

use std::fmt;
use std::path::Path;

/// An error of the training loop, in words that say which file or setting to fix.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct TrainError(pub String);

impl From<oxo_nn::NnError> for TrainError {
    fn from(e: oxo_nn::NnError) -> Self {
        TrainError(e.to_string())
    }
}

impl From<crate::config::ConfigError> for TrainError {
    fn from(e: crate::config::ConfigError) -> Self {
        TrainError(e.to_string())
    }
}

/// Result of the training loop's functions.
pub type Result<T> = std::result::Result<T, TrainError>;

/// An I/O error on `path` as a [`TrainError`].
pub(crate) fn io_error(path: &Path, e: impl fmt::Display) -> TrainError {
    TrainError(format!("{}: {e}", path.display()))
}

/// Writes `bytes` to `path` atomically ([`oxo_arena::record::write_atomic`]); an error
/// naming the path.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    oxo_arena::record::write_atomic(path, bytes).map_err(|e| io_error(path, e))
}
