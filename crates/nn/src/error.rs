//! Why a model or checkpoint file could not be saved or loaded.

use std::fmt;
use std::path::{Path, PathBuf};

/// An error saving or loading a model or training checkpoint. Every variant names the file, so
/// a message on its own tells a person what to fix.
#[derive(Debug, thiserror::Error)]
pub enum NnError {
    /// The file could not be read or written (missing, unreadable, disk full, ...).
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// The file is not a readable oxo model: not a Burnpack file, truncated, corrupt, or
    /// missing the tensors or metadata its header promises.
    #[error("{}: not a valid oxo model file: {reason}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What was wrong, in words.
        reason: String,
    },
    /// The file is a valid oxo model, but not the one asked for: another variant, another
    /// input or action shape, another network size, or a model where a checkpoint was expected.
    #[error("{}: wrong model: expected {expected}, but the file holds {found}", path.display())]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// What was asked for.
        expected: String,
        /// What the file holds.
        found: String,
    },
    /// The network could not be converted to an exchange format (ONNX, safetensors).
    #[error("cannot export the network as {format}: {reason}")]
    Export {
        /// The format being written.
        format: &'static str,
        /// What the converter said.
        reason: String,
    },
}

impl NnError {
    /// A [`NnError::Corrupt`] for `path`.
    pub(crate) fn corrupt(path: &Path, reason: impl fmt::Display) -> Self {
        NnError::Corrupt {
            path: path.to_path_buf(),
            reason: reason.to_string(),
        }
    }

    /// A [`NnError::Mismatch`] for `path`.
    pub(crate) fn mismatch(
        path: &Path,
        expected: impl fmt::Display,
        found: impl fmt::Display,
    ) -> Self {
        NnError::Mismatch {
            path: path.to_path_buf(),
            expected: expected.to_string(),
            found: found.to_string(),
        }
    }
}
