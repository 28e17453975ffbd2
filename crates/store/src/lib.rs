//! The run store: where a run's objects live when its stages run as separate processes on
//! separate machines (a self-play worker, the trainer, the gate). A store is a local
//! directory or an object store URL (`s3://`, `gs://`, `az://`, `file://`), reached through
//! the `object_store` crate.
//!
//! Every object is written once ([`RunStore::create`] is a conditional create: S3's
//! `If-None-Match: *`, a hard link on local files), so no writer can overwrite another's work
//! and a reader never sees a torn object. Credentials and endpoints come from the usual
//! environment (`AWS_ENDPOINT`, `AWS_ACCESS_KEY_ID`, `AWS_ALLOW_HTTP`, `GOOGLE_...`,
//! `AZURE_...`).

use std::sync::Arc;
use std::time::Duration;

use futures::TryStreamExt;
use object_store::local::LocalFileSystem;
use object_store::path::Path;
use object_store::{
    ClientConfigKey, ObjectStore, ObjectStoreExt, ObjectStoreScheme, PutMode, PutOptions,
    PutPayload, RetryConfig,
};

/// An error of the store, in words that say which object or setting to fix.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct StoreError(pub String);

/// Result of the store's functions.
pub type Result<T> = std::result::Result<T, StoreError>;

/// The largest object oxo reads: far above a batch of games or a model, far below what would
/// exhaust memory.
pub const MAX_OBJECT_BYTES: u64 = 1 << 30;

/// One object of a listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectInfo {
    /// Its key, relative to the run's root (`games/gen-00003/w1-000001.bin`).
    pub key: String,
    /// Its size in bytes.
    pub size: u64,
    /// When it was written, seconds since the Unix epoch.
    pub modified_unix: i64,
}

/// Whether `location` is a URL (`scheme://...`) rather than a directory path.
pub fn is_url(location: &str) -> bool {
    location.contains("://")
}

/// A run's objects: a store and the prefix of the run within it.
pub struct RunStore {
    store: Arc<dyn ObjectStore>,
    root: Path,
    location: String,
    /// The directory, for a store on the local file system.
    local: Option<std::path::PathBuf>,
    /// How long an operation keeps retrying while the store cannot be reached
    /// ([`PATIENCE_ENV`]); zero until the store has answered once, so a wrong endpoint is
    /// reported at once.
    patience: Duration,
    runtime: tokio::runtime::Runtime,
}

/// The environment variable that sets, in seconds, how long a process waits for a store it
/// reached before and can no longer reach (a cut network, a restarting server), retrying
/// each operation, before it gives up with a message: [`DEFAULT_PATIENCE`] if unset.
pub const PATIENCE_ENV: &str = "OXO_STORE_PATIENCE_SECS";

/// How long a store that went away is waited for by default.
pub const DEFAULT_PATIENCE: Duration = Duration::from_secs(600);

/// The wait between two tries of an operation on an unreachable store, at most.
const MAX_RETRY_WAIT: Duration = Duration::from_secs(10);

impl RunStore {
    /// Opens the store at `location`, a directory (created if missing) or a URL; checks that
    /// it can be reached and read, so a wrong endpoint, credential or bucket is reported now.
    pub fn open(location: &str) -> Result<RunStore> {
        Self::open_with(location, true)
    }

    /// Opens the store at `location` to read it: a directory that is not there is an error
    /// (nothing is created).
    pub fn open_existing(location: &str) -> Result<RunStore> {
        Self::open_with(location, false)
    }

    /// [`RunStore::open`], creating a missing directory where `create`.
    fn open_with(location: &str, create: bool) -> Result<RunStore> {
        let (store, root, local) = build_store(location, create)?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| StoreError(format!("{location}: cannot start the I/O runtime: {e}")))?;
        let mut run = RunStore {
            store,
            root,
            location: location.to_string(),
            local,
            patience: Duration::ZERO,
            runtime,
        };
        run.list("")?;
        run.patience = patience()?;
        Ok(run)
    }

    /// Takes the lock `NAME.lock` of a store on the local file system for as long as the
    /// returned file is open: the operating system releases it when the process ends,
    /// however it ends (kill -9 included), so a live holder is certain and a dead one never
    /// blocks. An error naming the file while another process holds it; `None` for an object
    /// store, which has no such locks (its writers use leases).
    pub fn lock(&self, name: &str) -> Result<Option<std::fs::File>> {
        let Some(dir) = &self.local else {
            return Ok(None);
        };
        let path = dir.join(format!("{name}.lock"));
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| StoreError(format!("{}: {e}", path.display())))?;
        match file.try_lock() {
            Ok(()) => Ok(Some(file)),
            Err(std::fs::TryLockError::WouldBlock) => Err(StoreError(format!(
                "{}: held by another live process: a run has exactly one {name}",
                path.display()
            ))),
            Err(std::fs::TryLockError::Error(e)) => {
                Err(StoreError(format!("{}: {e}", path.display())))
            }
        }
    }

    /// The directory of a store on the local file system (`None` for an object store).
    pub fn local_dir(&self) -> Option<&std::path::Path> {
        self.local.as_deref()
    }

    /// Where the store is, as given to [`RunStore::open`].
    pub fn location(&self) -> &str {
        &self.location
    }

    /// The full path of `key`.
    fn path(&self, key: &str) -> Path {
        if self.root.as_ref().is_empty() {
            Path::from(key)
        } else {
            Path::from(format!("{}/{key}", self.root))
        }
    }

    /// Writes `bytes` as `key` unless an object of that name exists: `true` if this call
    /// wrote it, `false` if it was already there (its content untouched).
    pub fn create(&self, key: &str, bytes: Vec<u8>) -> Result<bool> {
        let options = PutOptions {
            mode: PutMode::Create,
            ..PutOptions::default()
        };
        let path = self.path(key);
        let bytes = bytes::Bytes::from(bytes);
        let put = || {
            let payload = PutPayload::from(bytes.clone());
            self.store.put_opts(&path, payload, options.clone())
        };
        match self.patiently("writing", key, put) {
            Ok(_) => Ok(true),
            Err(object_store::Error::AlreadyExists { .. }) => Ok(false),
            Err(e) => Err(self.error("writing", key, &e)),
        }
    }

    /// Writes `bytes` as `key` as [`RunStore::create`] does, where an object `key` that
    /// holds the same bytes counts as written: a write retried after its answer was lost, or
    /// the same upload made twice. `false` only if `key` holds other bytes.
    pub fn create_or_same(&self, key: &str, bytes: Vec<u8>) -> Result<bool> {
        if self.create(key, bytes.clone())? {
            return Ok(true);
        }
        Ok(self.get(key)?.as_deref() == Some(&bytes[..]))
    }

    /// The bytes of `key`, or `None` if there is no such object.
    pub fn get(&self, key: &str) -> Result<Option<Vec<u8>>> {
        let path = self.path(key);
        let read = || async {
            let object = self.store.get(&path).await?;
            if object.meta.size > MAX_OBJECT_BYTES {
                return Ok(Err(object.meta.size));
            }
            object.bytes().await.map(Ok)
        };
        match self.patiently("reading", key, read) {
            Ok(Ok(bytes)) => Ok(Some(bytes.to_vec())),
            Ok(Err(size)) => Err(StoreError(format!(
                "{}: {size} bytes, more than the {MAX_OBJECT_BYTES} oxo reads (a damaged or \
                 foreign object)",
                self.describe(key)
            ))),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(self.error("reading", key, &e)),
        }
    }

    /// Whether there is an object `key`.
    pub fn exists(&self, key: &str) -> Result<bool> {
        let path = self.path(key);
        match self.patiently("looking for", key, || self.store.head(&path)) {
            Ok(_) => Ok(true),
            Err(object_store::Error::NotFound { .. }) => Ok(false),
            Err(e) => Err(self.error("looking for", key, &e)),
        }
    }

    /// The objects under the folder `prefix` (a folder such as `games/`, or `""` for
    /// all), in key order.
    pub fn list(&self, prefix: &str) -> Result<Vec<ObjectInfo>> {
        let folder = prefix.trim_end_matches('/');
        let base = if folder.is_empty() {
            self.root.clone()
        } else {
            self.path(folder)
        };
        let root_len = if self.root.as_ref().is_empty() {
            0
        } else {
            self.root.as_ref().len() + 1
        };
        let listing = || self.store.list(Some(&base)).try_collect::<Vec<_>>();
        let objects = self
            .patiently("listing", prefix, listing)
            .map_err(|e| self.error("listing", prefix, &e))?;
        let mut infos: Vec<ObjectInfo> = objects
            .into_iter()
            .map(|meta| ObjectInfo {
                key: meta.location.as_ref()[root_len.min(meta.location.as_ref().len())..]
                    .to_string(),
                size: meta.size,
                modified_unix: meta.last_modified.timestamp(),
            })
            .filter(|info| info.key.starts_with(prefix))
            .collect();
        infos.sort_by(|a, b| a.key.cmp(&b.key));
        Ok(infos)
    }

    /// Writes `value` as the JSON object `key` with a checksum of its text (see
    /// [`RunStore::get_json`]) as [`RunStore::create_or_same`] does: `false` only if `key`
    /// holds another object.
    pub fn create_json(&self, key: &str, value: &serde_json::Value) -> Result<bool> {
        let body = value.to_string();
        let sum = crc32fast::hash(body.as_bytes());
        self.create_or_same(
            key,
            format!("{{\"crc32\":{sum},\"body\":{body}}}\n").into_bytes(),
        )
    }

    /// The JSON object `key` written by [`RunStore::create_json`], or `None` if there is no
    /// such object. One that is not such JSON, or whose text does not match its checksum, is
    /// an error naming it.
    pub fn get_json(&self, key: &str) -> Result<Option<serde_json::Value>> {
        let Some(bytes) = self.get(key)? else {
            return Ok(None);
        };
        self.unseal(key, &bytes).map(Some)
    }

    /// The body of a sealed JSON object, checked against its checksum. The checksum covers
    /// the body's text as written (a parsed and printed number need not keep its digits).
    fn unseal(&self, key: &str, bytes: &[u8]) -> Result<serde_json::Value> {
        #[derive(serde::Deserialize)]
        struct Sealed<'a> {
            crc32: u32,
            #[serde(borrow)]
            body: &'a serde_json::value::RawValue,
        }
        let damaged =
            |what: String| StoreError(format!("{}: damaged object: {what}", self.describe(key)));
        let sealed: Sealed = serde_json::from_slice(bytes)
            .map_err(|e| damaged(format!("not an oxo JSON object ({e})")))?;
        if crc32fast::hash(sealed.body.get().as_bytes()) != sealed.crc32 {
            return Err(damaged("its content does not match its checksum".into()));
        }
        serde_json::from_str(sealed.body.get()).map_err(|e| damaged(e.to_string()))
    }

    /// Runs the operation `op` makes (`doing` something to `key`), trying it again while the
    /// store cannot be reached, for up to the store's patience, waiting longer between tries
    /// (1 s, 2 s, ... up to [`MAX_RETRY_WAIT`]) and saying so on stderr: a worker cut off
    /// from its store goes on when the link returns. Any other error, and the last one
    /// once patience is spent, is returned.
    fn patiently<T, F: std::future::Future<Output = object_store::Result<T>>>(
        &self,
        doing: &str,
        key: &str,
        op: impl Fn() -> F,
    ) -> object_store::Result<T> {
        let start = std::time::Instant::now();
        let mut wait = Duration::from_secs(1);
        loop {
            let result = self.runtime.block_on(op());
            let waited = start.elapsed();
            match result {
                Err(e) if unreachable(&e) && waited < self.patience => {
                    tracing::warn!(
                        "{doing} {}: the store cannot be reached ({}); trying again, for up \
                         to {} s in all ({PATIENCE_ENV})",
                        self.describe(key),
                        error_chain(&e),
                        self.patience.as_secs()
                    );
                    std::thread::sleep(wait.min(self.patience - waited));
                    wait = (wait * 2).min(MAX_RETRY_WAIT);
                }
                Err(e) if unreachable(&e) && !self.patience.is_zero() => {
                    return Err(object_store::Error::Generic {
                        store: "oxo",
                        source: format!(
                            "the store could not be reached for {} s ({PATIENCE_ENV}): {}",
                            waited.as_secs(),
                            error_chain(&e)
                        )
                        .into(),
                    });
                }
                other => return other,
            }
        }
    }

    /// `key` as a user finds it: the store's location and the key.
    pub fn describe(&self, key: &str) -> String {
        format!("{}/{key}", self.location.trim_end_matches('/'))
    }

    /// A store error on `key` while `doing` something, with what to check.
    fn error(&self, doing: &str, key: &str, e: &object_store::Error) -> StoreError {
        let text = error_chain(e);
        StoreError(format!(
            "{doing} {}: {text}{}",
            self.describe(key),
            hint(&text)
        ))
    }
}

/// An error and its sources, joined.
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        let line = cause.to_string();
        if !text.contains(&line) {
            text.push_str(": ");
            text.push_str(&line);
        }
        source = cause.source();
    }
    text
}

/// Whether `e` says the store could not be reached (a connection refused, reset or timed
/// out), rather than that it answered: those are worth trying again.
fn unreachable(e: &object_store::Error) -> bool {
    if !matches!(e, object_store::Error::Generic { .. }) {
        return false;
    }
    let text = error_chain(e).to_lowercase();
    // Status codes as the error text writes them: a bare "403" may be part of a port.
    let refused_by_server = [
        "403 forbidden",
        "401 unauthorized",
        "nosuchbucket",
        "accessdenied",
        "signature",
    ]
    .iter()
    .any(|w| text.contains(w));
    let network = [
        "connect",
        "timed out",
        "timeout",
        "connection reset",
        "broken pipe",
        "error sending request",
        "dns",
        "network",
        "incomplete",
        "unexpected eof",
    ]
    .iter()
    .any(|w| text.contains(w));
    network && !refused_by_server
}

/// The patience [`PATIENCE_ENV`] sets, or [`DEFAULT_PATIENCE`]; an error in words for a
/// value that is not a whole number of seconds.
fn patience() -> Result<Duration> {
    match std::env::var(PATIENCE_ENV) {
        Err(_) => Ok(DEFAULT_PATIENCE),
        Ok(text) => text
            .trim()
            .parse::<u64>()
            .map(Duration::from_secs)
            .map_err(|_| {
                StoreError(format!(
                    "{PATIENCE_ENV}={text}: give a whole number of seconds, e.g. 600"
                ))
            }),
    }
}

/// What to check for a store error whose text is `text`.
fn hint(text: &str) -> &'static str {
    let has = |words: &[&str]| words.iter().any(|w| text.contains(w));
    if has(&["NoSuchBucket", "ContainerNotFound", "bucket does not exist"]) {
        " (the bucket does not exist: create it first)"
    } else if has(&[
        "InvalidAccessKeyId",
        "SignatureDoesNotMatch",
        "AccessDenied",
        // Status codes as the error text writes them (`403 Forbidden`): a bare "403" or
        // "401" also matches an endpoint's port number, such as 127.0.0.1:40165.
        "403 Forbidden",
        "401 Unauthorized",
        "Unauthenticated",
        "PermissionDenied",
    ]) {
        " (the store refused the credentials: check AWS_ACCESS_KEY_ID and \
         AWS_SECRET_ACCESS_KEY, or the GOOGLE_/AZURE_ ones)"
    } else if has(&[
        "connect",
        "Connection refused",
        "dns",
        "timed out",
        "timeout",
    ]) {
        " (the store cannot be reached: check the endpoint, e.g. AWS_ENDPOINT, and \
         AWS_ALLOW_HTTP=true for plain http)"
    } else {
        ""
    }
}

/// Retries bounded so that an unreachable or misconfigured store fails in seconds, not
/// minutes.
fn retry_settings() -> RetryConfig {
    RetryConfig {
        max_retries: 3,
        retry_timeout: Duration::from_secs(20),
        ..RetryConfig::default()
    }
}

/// Client timeouts where the environment (`PREFIX_CONNECT_TIMEOUT`, `PREFIX_TIMEOUT`) sets
/// none: a connection in 5 s, a request in 2 minutes. (Set through the builder's own keys,
/// so the environment's other client settings, such as `AWS_ALLOW_HTTP`, stay.)
fn client_timeouts(prefix: &str) -> Vec<(ClientConfigKey, &'static str)> {
    [
        (ClientConfigKey::ConnectTimeout, "CONNECT_TIMEOUT", "5s"),
        (ClientConfigKey::Timeout, "TIMEOUT", "120s"),
    ]
    .into_iter()
    .filter(|(_, name, _)| std::env::var_os(format!("{prefix}_{name}")).is_none())
    .map(|(key, _, value)| (key, value))
    .collect()
}

/// The object store at `location` and the run's root path within it.
fn build_store(location: &str, create: bool) -> Result<StoreParts> {
    let bad = |what: String| StoreError(format!("--run {location}: {what}"));
    if !is_url(location) {
        return local_store(std::path::Path::new(location), create).map_err(bad);
    }
    let url = url::Url::parse(location).map_err(|e| {
        bad(format!(
            "not a URL ({e}); accepted: a directory, file:///DIR, s3://BUCKET/PREFIX, \
             gs://BUCKET/PREFIX, az://CONTAINER/PREFIX"
        ))
    })?;
    let (scheme, root) = ObjectStoreScheme::parse(&url).map_err(|e| {
        bad(format!(
            "{e}; accepted: file://, s3://, gs://, az:// (and their https forms)"
        ))
    })?;
    let store: Arc<dyn ObjectStore> = match scheme {
        ObjectStoreScheme::Local => {
            let dir = url
                .to_file_path()
                .map_err(|()| bad("not a local path".into()))?;
            return local_store(&dir, create).map_err(bad);
        }
        ObjectStoreScheme::AmazonS3 => {
            use object_store::aws::{AmazonS3Builder, AmazonS3ConfigKey};
            let builder = client_timeouts("AWS")
                .into_iter()
                .fold(AmazonS3Builder::from_env(), |b, (key, value)| {
                    b.with_config(AmazonS3ConfigKey::Client(key), value)
                });
            let builder = builder.with_url(location).with_retry(retry_settings());
            Arc::new(builder.build().map_err(|e| bad(error_chain(&e)))?)
        }
        ObjectStoreScheme::GoogleCloudStorage => {
            use object_store::gcp::{GoogleCloudStorageBuilder, GoogleConfigKey};
            let builder = client_timeouts("GOOGLE")
                .into_iter()
                .fold(GoogleCloudStorageBuilder::from_env(), |b, (key, value)| {
                    b.with_config(GoogleConfigKey::Client(key), value)
                });
            let builder = builder.with_url(location).with_retry(retry_settings());
            Arc::new(builder.build().map_err(|e| bad(error_chain(&e)))?)
        }
        ObjectStoreScheme::MicrosoftAzure => {
            use object_store::azure::{AzureConfigKey, MicrosoftAzureBuilder};
            let builder = client_timeouts("AZURE")
                .into_iter()
                .fold(MicrosoftAzureBuilder::from_env(), |b, (key, value)| {
                    b.with_config(AzureConfigKey::Client(key), value)
                });
            let builder = builder.with_url(location).with_retry(retry_settings());
            Arc::new(builder.build().map_err(|e| bad(error_chain(&e)))?)
        }
        other => {
            return Err(bad(format!(
                "{other:?} is not a run store; accepted: file://, s3://, gs://, az://"
            )));
        }
    };
    Ok((store, root, None))
}

/// The parts of a store: the object store, the run's prefix in it, and the directory of a
/// store on the local file system.
type StoreParts = (Arc<dyn ObjectStore>, Path, Option<std::path::PathBuf>);

/// A directory as a store (created if missing where `create`, else refused).
fn local_store(dir: &std::path::Path, create: bool) -> std::result::Result<StoreParts, String> {
    if create {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create the directory: {e}"))?;
    } else if !dir.is_dir() {
        return Err("no such directory: no run here".to_string());
    }
    let store = LocalFileSystem::new_with_prefix(dir).map_err(|e| error_chain(&e))?;
    Ok((Arc::new(store), Path::default(), Some(dir.to_path_buf())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn local() -> (tempfile::TempDir, RunStore) {
        let dir = tempfile::tempdir().unwrap();
        let store = RunStore::open(dir.path().join("run").to_str().unwrap()).unwrap();
        (dir, store)
    }

    /// A second create of the same key writes nothing: the first content stays.
    #[test]
    fn objects_are_written_once() {
        let (_dir, store) = local();
        assert!(
            store
                .create("games/gen-00001/a.bin", b"first".to_vec())
                .unwrap()
        );
        assert!(
            !store
                .create("games/gen-00001/a.bin", b"second".to_vec())
                .unwrap()
        );
        assert_eq!(
            store.get("games/gen-00001/a.bin").unwrap().unwrap(),
            b"first"
        );
        assert_eq!(store.get("games/gen-00001/b.bin").unwrap(), None);
        // The same bytes again count as written (a retried upload); other bytes do not.
        assert!(
            store
                .create_or_same("games/gen-00001/a.bin", b"first".to_vec())
                .unwrap()
        );
        assert!(
            !store
                .create_or_same("games/gen-00001/a.bin", b"other".to_vec())
                .unwrap()
        );
    }

    #[test]
    fn listings_are_in_key_order_and_relative_to_the_run() {
        let (_dir, store) = local();
        for key in [
            "models/gen-00002.bpk",
            "models/gen-00001.bpk",
            "best/gen-00000.json",
        ] {
            store.create(key, key.as_bytes().to_vec()).unwrap();
        }
        let keys: Vec<String> = store
            .list("models/")
            .unwrap()
            .into_iter()
            .map(|o| o.key)
            .collect();
        assert_eq!(keys, ["models/gen-00001.bpk", "models/gen-00002.bpk"]);
        assert_eq!(store.list("").unwrap().len(), 3);
        assert!(store.list("gate/").unwrap().is_empty());
        assert!(store.exists("models/gen-00001.bpk").unwrap());
        assert!(!store.exists("models/gen-00003.bpk").unwrap());
    }

    /// A JSON object round-trips; one changed after it was written is refused by name.
    #[test]
    fn damaged_json_objects_are_refused_by_name() {
        let (dir, store) = local();
        // A number whose digits a parse and print of serde_json need not keep.
        let value =
            serde_json::json!({"generation": 3, "score": 0.625, "rate": 1267.9504136291991});
        store.create_json("gate/gen-00003.json", &value).unwrap();
        let read = store.get_json("gate/gen-00003.json").unwrap().unwrap();
        assert_eq!(read["generation"], 3);
        assert!((read["rate"].as_f64().unwrap() - 1267.9504136291991).abs() < 1e-9);
        let file = dir.path().join("run/gate/gen-00003.json");
        let text = std::fs::read_to_string(&file)
            .unwrap()
            .replace("0.625", "0.875");
        std::fs::write(&file, text).unwrap();
        let err = store
            .get_json("gate/gen-00003.json")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("gate/gen-00003.json") && err.contains("checksum"),
            "{err}"
        );
        std::fs::write(&file, "not json").unwrap();
        let err = store
            .get_json("gate/gen-00003.json")
            .unwrap_err()
            .to_string();
        assert!(err.contains("not an oxo JSON object"), "{err}");
    }

    /// Each store error gets the hint its cause needs; an endpoint whose port holds the
    /// digits of a status code (401, 403) is still a store that cannot be reached.
    #[test]
    fn store_errors_get_the_hint_of_their_cause() {
        let refused = "listing s3://oxo/run/: Generic S3 error: Error performing list request: \
            Error performing GET http://127.0.0.1:40165/oxo?list-type=2&prefix=run%2F in \
            467ms, after 3 retries, max_retries: 3, retry_timeout: 20s - HTTP error: error \
            sending request: client error (Connect): tcp connect error: Connection refused";
        assert!(hint(refused).contains("cannot be reached"));
        assert!(hint(&refused.replace("40165", "40365")).contains("cannot be reached"));
        let forbidden = "Server returned non-2xx status code: 403 Forbidden: <Error>";
        assert!(hint(forbidden).contains("credentials"));
        assert!(
            hint("Server returned non-2xx status code: 401 Unauthorized").contains("credentials")
        );
        assert!(hint("<Code>SignatureDoesNotMatch</Code>").contains("credentials"));
        assert!(hint("<Code>NoSuchBucket</Code>").contains("bucket does not exist"));
        assert_eq!(hint("not an oxo JSON object"), "");
    }

    #[test]
    fn unknown_schemes_and_bad_urls_say_what_is_accepted() {
        let err = RunStore::open("ftp://host/run").err().unwrap().to_string();
        assert!(err.contains("accepted") && err.contains("s3://"), "{err}");
    }

    #[test]
    fn file_urls_are_directories() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("file://{}/run", dir.path().display());
        let store = RunStore::open(&url).unwrap();
        store.create("config.toml", b"x".to_vec()).unwrap();
        assert!(dir.path().join("run/config.toml").exists());
    }
}
