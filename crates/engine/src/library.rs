//! Finding and loading the onnxruntime library, once per process.
//!
//! oxo links no onnxruntime at build time (nothing is downloaded while building); it loads
//! the shared library when the first session is made, from the first of these that loads:
//!
//! 1. the file `ORT_DYLIB_PATH` names (ort's own variable); when it is set, nothing else is
//!    tried, so that the library a user names is the one that runs;
//! 2. the library the Python `onnxruntime` package ships in its `capi/` directory (`pip
//!    install onnxruntime`), found through `python3` without importing the package;
//! 3. `libonnxruntime.so` (`.dylib` on macOS) on the system library path.
//!
//! Without one, [`onnxruntime`] says why once, and the engines run on burn instead.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use ort::environment::Environment;

/// A loaded onnxruntime: the file it came from, its version and the environment every
/// session is made in.
#[derive(Debug)]
pub struct Runtime {
    /// The library file that was loaded.
    pub library: PathBuf,
    /// onnxruntime's version string, e.g. `1.32.0`.
    pub version: String,
    /// The process-wide onnxruntime environment.
    pub environment: Environment,
}

/// How to get the library, for the message shown when none loads.
pub const INSTALL_HINT: &str = "install it with `pip install onnxruntime` (or set ORT_DYLIB_PATH \
     to a libonnxruntime shared library, version 1.17 or later)";

/// The process's onnxruntime, loaded on the first call; the error says, in words, what was
/// tried and how to get the library. Every later call gives the same answer.
pub fn onnxruntime() -> Result<&'static Runtime, &'static str> {
    static RUNTIME: OnceLock<Result<Runtime, String>> = OnceLock::new();
    RUNTIME.get_or_init(load).as_ref().map_err(String::as_str)
}

/// Tries every candidate in order; the first that loads wins.
fn load() -> Result<Runtime, String> {
    let mut tried = Vec::new();
    for candidate in candidates() {
        match ort::init_from(&candidate) {
            Ok(builder) => {
                let environment = builder
                    .with_name("oxo")
                    .with_telemetry(false)
                    .build()
                    .map_err(|e| format!("onnxruntime at {}: {e}", candidate.display()))?;
                return Ok(Runtime {
                    version: version_of(&candidate)?,
                    library: std::fs::canonicalize(&candidate).unwrap_or(candidate),
                    environment,
                });
            }
            Err(e) => tried.push(format!("{}: {e}", candidate.display())),
        }
    }
    Err(format!(
        "onnxruntime not found ({}); {INSTALL_HINT}",
        tried.join("; ")
    ))
}

/// The version string of the onnxruntime library at `path` (already loaded: this opens it
/// again, which only counts a reference).
fn version_of(path: &Path) -> Result<String, String> {
    let error = |e: &dyn std::fmt::Display| format!("onnxruntime at {}: {e}", path.display());
    // SAFETY: the library loaded once already (ort checked that it exports OrtGetApiBase with
    // onnxruntime's C API); the function takes no arguments and returns a pointer to a static
    // table whose GetVersionString returns a static NUL-terminated string.
    unsafe {
        let library = libloading::Library::new(path).map_err(|e| error(&e))?;
        let get_api_base: libloading::Symbol<
            unsafe extern "C" fn() -> *const ort::sys::OrtApiBase,
        > = library.get(b"OrtGetApiBase").map_err(|e| error(&e))?;
        let base = get_api_base();
        if base.is_null() {
            return Err(error(&"OrtGetApiBase returned null"));
        }
        let version = std::ffi::CStr::from_ptr(((*base).GetVersionString)());
        Ok(version.to_string_lossy().into_owned())
    }
}

/// The library files to try, in order.
fn candidates() -> Vec<PathBuf> {
    if let Some(path) = std::env::var_os("ORT_DYLIB_PATH").filter(|p| !p.is_empty()) {
        return vec![PathBuf::from(path)];
    }
    let mut candidates = Vec::new();
    if let Some(capi) = python_package_dir().map(|dir| dir.join("capi")) {
        candidates.extend(library_in(&capi));
    }
    candidates.push(PathBuf::from(SYSTEM_NAME));
    candidates
}

/// The library's file name on the system library path.
#[cfg(target_os = "macos")]
const SYSTEM_NAME: &str = "libonnxruntime.dylib";
#[cfg(not(target_os = "macos"))]
const SYSTEM_NAME: &str = "libonnxruntime.so";

/// The directory of the Python `onnxruntime` package, asked of `python3` without importing
/// the package (`find_spec` only locates it); `None` without Python or the package.
fn python_package_dir() -> Option<PathBuf> {
    let script = "import importlib.util as u\n\
                  s = u.find_spec('onnxruntime')\n\
                  print(s.submodule_search_locations[0] if s else '')";
    let output = Command::new("python3").args(["-c", script]).output().ok()?;
    let dir = String::from_utf8(output.stdout).ok()?;
    let dir = dir.trim();
    (output.status.success() && !dir.is_empty()).then(|| PathBuf::from(dir))
}

/// The onnxruntime libraries in `dir` (the wheel's `capi/` holds one
/// `libonnxruntime.so.1.32.0`, or `libonnxruntime.1.32.0.dylib` on macOS), in name order.
fn library_in(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|path| {
            path.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(is_library_name)
        })
        .collect();
    found.sort();
    found
}

/// Whether a file name is onnxruntime's main library (not its providers' libraries).
fn is_library_name(name: &str) -> bool {
    name.strip_prefix("libonnxruntime")
        .is_some_and(|rest| rest.starts_with(".so") || rest.ends_with(".dylib"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn library_names_are_recognised() {
        assert!(is_library_name("libonnxruntime.so.1.32.0"));
        assert!(is_library_name("libonnxruntime.so"));
        assert!(is_library_name("libonnxruntime.1.32.0.dylib"));
        assert!(!is_library_name("libonnxruntime_providers_shared.so"));
        assert!(!is_library_name("onnxruntime_pybind11_state.so"));
    }
}
