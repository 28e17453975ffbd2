//! How results are recorded: files written atomically ([`write_atomic`]), naming the code
//! that made them ([`build_commit`]). Tournament results and the trainer's run files are
//! written this way.

use std::fs;
use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` atomically: a scratch file beside it (`.NAME.PID-N.tmp`, N
/// counting this process's writes, so threads writing one path at once never share one),
/// synced, renamed over it, the directory synced; the directory is created if needed. A
/// reader sees the old file or the new one, never a part; a killed writer leaves at most the
/// scratch file. The error names nothing: the caller adds the path.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let temp = dir.join(format!(".{name}.{}-{n}.tmp", std::process::id()));
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

#[cfg(test)]
mod tests {
    use super::write_atomic;

    /// Threads of one process writing one path at once each succeed (no two share a scratch
    /// file, so no rename finds its scratch taken), and the file is one of their writes whole.
    #[test]
    fn threads_writing_one_path_at_once_all_succeed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("model.bpk");
        std::thread::scope(|scope| {
            for thread in 0..8u8 {
                let path = &path;
                scope.spawn(move || {
                    for _ in 0..50 {
                        write_atomic(path, &[thread; 4096]).unwrap();
                    }
                });
            }
        });
        let bytes = std::fs::read(&path).unwrap();
        assert!(bytes.len() == 4096 && bytes.iter().all(|&b| b == bytes[0]));
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no scratch left"
        );
    }
}
