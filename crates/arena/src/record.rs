//! How results are recorded: files written atomically ([`write_atomic`]), naming the code
//! that made them ([`build_commit`]). Tournament results and the trainer's run files are
//! written this way.

use std::fs;
use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` atomically: a scratch file beside it (`.NAME.PID.tmp`), synced,
/// renamed over it, the directory synced; the directory is created if needed. A reader sees
/// the old file or the new one, never a part; a killed writer leaves at most the scratch
/// file. The error names nothing: the caller adds the path.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let write = || -> std::io::Result<()> {
        let mut file = fs::File::create(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&temp, path)?;
        if let Ok(d) = fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    };
    write().inspect_err(|_| {
        let _ = fs::remove_file(&temp);
    })
}

/// The git commit oxo was built from (`git rev-parse HEAD` at build time; uncommitted
/// changes are not recorded), if it was built in a git checkout.
pub fn build_commit() -> Option<String> {
    Some(env!("OXO_GIT_COMMIT").to_string()).filter(|c| !c.is_empty())
}
