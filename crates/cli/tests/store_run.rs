//! A run over a real S3 server (`s3s-fs`, which `scripts/setup.sh` installs): two self-play
//! workers, the trainer and the gate as separate `oxo train --role` processes, each killed
//! with SIGKILL once mid-run and restarted; then the checks of the run's objects, `oxo
//! status`, and the errors of bad stores; and a worker in its own network namespace cut off
//! from the server and let back. Set `OXO_S3S_FS` to the server's binary if it is not on
//! PATH.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const OXO: &str = env!("CARGO_BIN_EXE_oxo");
const KEY: &str = "oxo-test-key";
const SECRET: &str = "oxo-test-secret";

/// Tictactoe, 6 generations of 16 games in batches of 8: seconds per generation.
const CONFIG: &str = r#"
variant = "tictactoe"
seed = 11
generations = 6
[net]
blocks = 1
channels = 8
value_hidden = 16
[selfplay]
games_per_generation = 16
parallel_games = 8
workers = 1
simulations_full = 16
simulations_fast = 4
full_search_prob = 0.5
[train]
batch_size = 32
steps_per_generation = 10
learning_rate = 0.002
min_window = 500
max_window = 5000
[gate]
max_games = 8
simulations = 8
opening_plies = 2
"#;

/// The `s3s-fs` binary: `OXO_S3S_FS`, or `s3s-fs` on PATH or in `~/.cargo/bin`.
fn s3s_fs() -> PathBuf {
    if let Some(path) = std::env::var_os("OXO_S3S_FS") {
        return PathBuf::from(path);
    }
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    if let Some(home) = std::env::var_os("HOME") {
        dirs.push(Path::new(&home).join(".cargo/bin"));
    }
    dirs.into_iter()
        .map(|d| d.join("s3s-fs"))
        .find(|p| p.is_file())
        .expect(
            "s3s-fs not found: `cargo install s3s-fs --version 0.14.1 --features binary --locked` \
             (scripts/setup.sh does), or set OXO_S3S_FS",
        )
}

/// An S3 server over a temporary directory, with bucket `oxo`; killed when dropped.
struct S3Server {
    child: Child,
    port: u16,
    root: PathBuf,
}

impl S3Server {
    fn start(root: &Path) -> S3Server {
        std::fs::create_dir_all(root.join("oxo")).unwrap();
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(s3s_fs())
            .args(["--host", "0.0.0.0", "--port", &port.to_string()])
            .args(["--access-key", KEY, "--secret-key", SECRET])
            .arg(root)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("s3s-fs starts");
        let start = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "s3s-fs did not listen"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        S3Server {
            child,
            port,
            root: root.to_path_buf(),
        }
    }

    /// The environment a process needs to reach the server (with `secret` as the secret key).
    fn env(&self, secret: &str) -> Vec<(&'static str, String)> {
        vec![
            ("AWS_ENDPOINT", format!("http://127.0.0.1:{}", self.port)),
            ("AWS_ALLOW_HTTP", "true".into()),
            ("AWS_ACCESS_KEY_ID", KEY.into()),
            ("AWS_SECRET_ACCESS_KEY", secret.into()),
            ("AWS_REGION", "us-east-1".into()),
        ]
    }

    /// The file of object `key` of bucket `oxo` on the server's disk.
    fn file(&self, key: &str) -> PathBuf {
        self.root.join("oxo").join(key)
    }
}

impl Drop for S3Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `oxo ARGS` with `env`, logging to `log`.
fn spawn(args: &[&str], env: &[(&str, String)], log: &Path) -> Child {
    spawn_logged(Command::new(OXO), args, env, log)
}

/// `command ARGS` with `env` and info-level log lines, its output written to `log`.
fn spawn_logged(mut command: Command, args: &[&str], env: &[(&str, String)], log: &Path) -> Child {
    let log = std::fs::File::create(log).unwrap();
    command
        .args(args)
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .env("RUST_LOG", "info")
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .spawn()
        .unwrap()
}

/// `oxo ARGS` with `env`, run to the end.
fn run(args: &[&str], env: &[(&str, String)]) -> Output {
    Command::new(OXO)
        .args(args)
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .output()
        .unwrap()
}

/// Waits (at most two minutes) until `done` holds.
fn wait_for(what: &str, done: impl Fn() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The keys under `prefix` of the run's folder on the server's disk.
fn keys(server: &S3Server, prefix: &str) -> Vec<String> {
    let dir = server.file("run");
    let mut out = Vec::new();
    let mut stack = vec![dir.join(prefix)];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let path = e.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let key = path
                    .strip_prefix(&dir)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                // s3s-fs keeps metadata and uploads in hidden files beside the objects.
                if !key.split('/').any(|part| part.starts_with('.')) {
                    out.push(key);
                }
            }
        }
    }
    out.sort();
    out
}

/// The JSON body of object `key` (oxo's sealed JSON: `{"crc32": .., "body": ..}`).
fn json(server: &S3Server, key: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(server.file(&format!("run/{key}"))).unwrap();
    serde_json::from_str::<serde_json::Value>(&text).unwrap()["body"].clone()
}

#[test]
fn workers_trainer_and_gate_over_s3_survive_kill_9() {
    let dir = tempfile::tempdir().unwrap();
    let server = S3Server::start(&dir.path().join("s3"));
    let env = server.env(SECRET);
    let config = dir.path().join("tictactoe.toml");
    std::fs::write(&config, CONFIG).unwrap();
    let config = config.to_str().unwrap();
    let url = "s3://oxo/run";
    let logs = dir.path().join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    let role = |name: &str, n: usize, extra: &[&str]| {
        let cache = dir.path().join(format!("cache-{name}-{n}"));
        let mut args = vec![
            "train",
            "--variant",
            "tictactoe",
            "--run",
            url,
            "--config",
            config,
        ];
        args.extend_from_slice(&[
            "--role",
            if name.starts_with("worker") {
                "selfplay"
            } else {
                name
            },
        ]);
        args.extend_from_slice(&["--cache", cache.to_str().unwrap()]);
        args.extend_from_slice(extra);
        spawn(&args, &env, &logs.join(format!("{name}-{n}.log")))
    };
    let mut trainer = role("trainer", 0, &[]);
    wait_for("the first net", || {
        server.file("run/best/gen-00000.json").exists()
    });
    let mut gate = role("gate", 0, &[]);
    let mut worker_a = role("worker-a", 0, &[]);
    let mut worker_b = role("worker-b", 0, &[]);

    // Each process is killed once, at a different point of the run, and restarted.
    wait_for("a batch of worker a", || {
        std::fs::read_to_string(logs.join("worker-a-0.log"))
            .is_ok_and(|log| log.contains("self-play: games/"))
    });
    worker_a.kill().unwrap();
    worker_a.wait().unwrap();
    let mut worker_a = role("worker-a", 1, &[]);
    wait_for("candidate 2", || {
        server.file("run/models/gen-00002.bpk").exists()
    });
    trainer.kill().unwrap();
    trainer.wait().unwrap();
    let mut trainer = role("trainer", 1, &["--takeover"]);
    wait_for("decision 3", || {
        server.file("run/gate/gen-00003.json").exists()
    });
    gate.kill().unwrap();
    gate.wait().unwrap();
    let mut gate = role("gate", 1, &[]);
    worker_b.kill().unwrap();
    worker_b.wait().unwrap();
    let mut worker_b = role("worker-b", 1, &[]);

    for (name, child) in [
        ("trainer", &mut trainer),
        ("gate", &mut gate),
        ("worker-a", &mut worker_a),
        ("worker-b", &mut worker_b),
    ] {
        let start = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            assert!(
                start.elapsed() < Duration::from_secs(240),
                "{name} did not finish"
            );
            std::thread::sleep(Duration::from_millis(100));
        };
        let log = std::fs::read_to_string(logs.join(format!("{name}-1.log"))).unwrap();
        assert!(status.success(), "{name} failed:\n{log}");
    }

    // The restarted trainer resumed from its checkpoint, not from a fresh net.
    let restarted = std::fs::read_to_string(logs.join("trainer-1.log")).unwrap();
    let resumed_at = restarted
        .split(": at generation ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse::<u64>().ok());
    assert!(resumed_at.is_some_and(|g| g >= 2), "{restarted}");

    // The run has every generation, as an uninterrupted run does.
    let gens = |prefix: &str, ext: &str| -> Vec<String> {
        keys(&server, prefix)
            .into_iter()
            .filter(|k| k.ends_with(ext))
            .collect()
    };
    assert_eq!(gens("models", ".bpk").len(), 7, "{:?}", gens("models", ""));
    assert_eq!(gens("trainer", ".bpk").len(), 7);
    assert_eq!(gens("trainer", ".json").len(), 6);
    assert_eq!(gens("gate", ".json").len(), 6);
    assert!(!gens("best", ".json").is_empty());

    // Every game uploaded was claimed by exactly one generation, or came after the last
    // claim listed the games; every claimed game and window object exists.
    let games = keys(&server, "games");
    let mut claimed = std::collections::HashSet::new();
    for generation in 1..=6 {
        let claim = json(&server, &format!("trainer/gen-{generation:05}.json"));
        for key in claim["games"].as_array().unwrap() {
            let key = key.as_str().unwrap().to_string();
            assert!(games.contains(&key), "claimed {key} is missing");
            assert!(claimed.insert(key.clone()), "{key} claimed twice");
        }
        for key in claim["window"].as_array().unwrap() {
            assert!(games.contains(&key.as_str().unwrap().to_string()));
        }
    }
    // A game written after the last claim listed the games is for a generation the run does
    // not have (1 s for the server's write before its rename).
    let listed = json(&server, "trainer/gen-00006.json")["listed_unix_ms"]
        .as_u64()
        .unwrap();
    let listed = std::time::UNIX_EPOCH + Duration::from_millis(listed);
    for key in &games {
        let written = std::fs::metadata(server.file(&format!("run/{key}")))
            .unwrap()
            .modified()
            .unwrap();
        assert!(
            claimed.contains(key) || written + Duration::from_secs(1) >= listed,
            "{key} was neither trained on nor written after the last claim's listing"
        );
    }
    // Worker a played before and after its restart, and worker b (whose restart may come
    // too late to play) before: at least three writers.
    let writers: std::collections::HashSet<String> = games
        .iter()
        .map(|k| {
            k.rsplit('/')
                .next()
                .unwrap()
                .rsplit_once('-')
                .unwrap()
                .0
                .to_string()
        })
        .collect();
    assert!(writers.len() >= 3, "{writers:?}");

    // The server honours create-only writes: a second write of an object changes nothing.
    let status = run(&["status", "--run", url], &env);
    let report = String::from_utf8_lossy(&status.stdout);
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    assert!(
        report.contains("candidate gen 6") && report.contains("(finished)"),
        "{report}"
    );
    assert!(report.contains("games/h"), "{report}");

    // A finished run started again does nothing and fails nothing.
    let again = run(
        &[
            "train",
            "--variant",
            "tictactoe",
            "--run",
            url,
            "--role",
            "gate",
        ],
        &env,
    );
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );

    // An uninterrupted run of the same config, all roles in one process, in a directory
    // store, reaches the same generation count.
    let plain = dir.path().join("plain");
    let plain_url = format!("file://{}", plain.display());
    let output = run(
        &[
            "train",
            "--variant",
            "tictactoe",
            "--run",
            &plain_url,
            "--config",
            config,
        ],
        &[],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(plain.join("gate/gen-00006.json").exists());
    assert!(!plain.join("gate/gen-00007.json").exists());
    assert!(plain.join("models/gen-00006.bpk").exists());
}

/// Wrong credentials, a missing bucket, an unreachable endpoint, another variant's run and a
/// damaged object: each a clear error and a non-zero exit.
#[test]
fn bad_stores_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let server = S3Server::start(&dir.path().join("s3"));
    let config = dir.path().join("tictactoe.toml");
    std::fs::write(&config, CONFIG).unwrap();
    let config = config.to_str().unwrap();
    let fails = |args: &[&str], env: &[(&str, String)], words: &[&str]| {
        let output = run(args, env);
        let err = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(!output.status.success(), "{args:?} succeeded");
        assert!(words.iter().all(|w| err.contains(w)), "{args:?}: {err}");
    };
    let train = |url: &'static str| -> Vec<&'static str> {
        vec![
            "train",
            "--variant",
            "tictactoe",
            "--run",
            url,
            "--role",
            "gate",
        ]
    };
    fails(
        &train("s3://oxo/run"),
        &server.env("wrong"),
        &["credentials"],
    );
    fails(
        &train("s3://nobucket/run"),
        &server.env(SECRET),
        &["bucket does not exist"],
    );
    let closed = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut unreachable = server.env(SECRET);
    unreachable[0].1 = format!("http://127.0.0.1:{closed}");
    fails(&train("s3://oxo/run"), &unreachable, &["cannot be reached"]);
    fails(&train("ftp://oxo/run"), &[], &["accepted", "s3://"]);

    // A run of tictactoe is not one of ultimate; a damaged object is refused by name.
    let env = server.env(SECRET);
    let mut args = vec![
        "train",
        "--variant",
        "tictactoe",
        "--run",
        "s3://oxo/run",
        "--config",
        config,
    ];
    args.extend_from_slice(&["--role", "trainer", "--minutes", "0.001"]);
    let output = run(&args, &env);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    fails(
        &[
            "train",
            "--variant",
            "ultimate",
            "--run",
            "s3://oxo/run",
            "--role",
            "gate",
        ],
        &env,
        &["tictactoe run", "not ultimate"],
    );
    let best = server.file("run/best/gen-00000.json");
    let text = std::fs::read_to_string(&best)
        .unwrap()
        .replace("first net", "first nat");
    std::fs::write(&best, text).unwrap();
    fails(
        &["status", "--run", "s3://oxo/run"],
        &env,
        &["best/gen-00000.json", "checksum"],
    );
}

/// A network namespace joined to this one by a veth pair, whose host end can be cut and
/// restored: a machine on a link that fails. Removed when dropped. Needs root and `ip`.
struct CutOffMachine {
    name: String,
    host_link: String,
    /// This side's address, which the namespace reaches the server at.
    host_ip: String,
}

impl CutOffMachine {
    fn new() -> CutOffMachine {
        let id = std::process::id() % 100_000;
        let subnet = 10 + id % 240;
        let machine = CutOffMachine {
            name: format!("oxo-cut-{id}"),
            host_link: format!("oxh{id}"),
            host_ip: format!("10.77.{subnet}.1"),
        };
        let inner = format!("oxn{id}");
        let ns = machine.name.clone();
        let steps: Vec<Vec<String>> = vec![
            vec!["netns", "add", &ns],
            vec![
                "link",
                "add",
                &machine.host_link,
                "type",
                "veth",
                "peer",
                "name",
                &inner,
            ],
            vec!["link", "set", &inner, "netns", &ns],
            vec![
                "addr",
                "add",
                &format!("{}/24", machine.host_ip),
                "dev",
                &machine.host_link,
            ],
            vec!["link", "set", &machine.host_link, "up"],
            vec![
                "-n",
                &ns,
                "addr",
                "add",
                &format!("10.77.{subnet}.2/24"),
                "dev",
                &inner,
            ],
            vec!["-n", &ns, "link", "set", &inner, "up"],
            vec!["-n", &ns, "link", "set", "lo", "up"],
        ]
        .into_iter()
        .map(|step| step.into_iter().map(String::from).collect())
        .collect();
        for step in steps {
            let output = Command::new("ip").args(&step).output().expect("ip runs");
            assert!(
                output.status.success(),
                "ip {}: {} (this test needs root and network namespaces)",
                step.join(" "),
                String::from_utf8_lossy(&output.stderr)
            );
        }
        machine
    }

    /// Cuts the link (`up` false) or restores it.
    fn link(&self, up: bool) {
        let state = if up { "up" } else { "down" };
        let status = Command::new("ip")
            .args(["link", "set", &self.host_link, state])
            .status()
            .unwrap();
        assert!(status.success(), "ip link set {} {state}", self.host_link);
    }

    /// `oxo ARGS` inside the namespace with `env`, logging to `log`.
    fn spawn(&self, args: &[&str], env: &[(&str, String)], log: &Path) -> Child {
        let mut command = Command::new("ip");
        command.args(["netns", "exec", &self.name, OXO]);
        spawn_logged(command, args, env, log)
    }
}

impl Drop for CutOffMachine {
    fn drop(&mut self) {
        let _ = Command::new("ip")
            .args(["link", "del", &self.host_link])
            .status();
        let _ = Command::new("ip")
            .args(["netns", "del", &self.name])
            .status();
    }
}

/// Waits up to `limit` for `child` to end; its exit status.
fn wait_exit(child: &mut Child, limit: Duration) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        assert!(start.elapsed() < limit, "still running after {limit:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A worker on its own network, its link to the S3 server cut twice mid-run for longer than
/// the object store client's own timeouts and retries last (8 s and 20 s), goes on when the
/// link returns: the
/// run finishes its generations and every batch uploaded is whole. A worker whose link
/// never returns gives up after its patience (`OXO_STORE_PATIENCE_SECS`) with a message
/// that says so, and a non-zero exit.
#[test]
fn a_worker_cut_off_from_its_store_recovers_or_says_why() {
    let machine = CutOffMachine::new();
    let dir = tempfile::tempdir().unwrap();
    let server = S3Server::start(&dir.path().join("s3"));
    let env = server.env(SECRET);
    // The worker's requests time out in 8 s, not 2 minutes, so a cut outlasts the client's
    // own retries and oxo's patience is what carries the worker over.
    let mut remote = env.clone();
    remote[0].1 = format!("http://{}:{}", machine.host_ip, server.port);
    remote.push(("AWS_TIMEOUT", "8s".to_string()));
    let config = dir.path().join("tictactoe.toml");
    std::fs::write(
        &config,
        CONFIG.replace("generations = 6", "generations = 4"),
    )
    .unwrap();
    let logs = dir.path().join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    let args = |run: &str, role: &'static str, cache: &str| -> Vec<String> {
        let cache = dir.path().join(cache);
        [
            "train",
            "--variant",
            "tictactoe",
            "--run",
            run,
            "--config",
            config.to_str().unwrap(),
            "--role",
            role,
            "--cache",
            cache.to_str().unwrap(),
        ]
        .map(String::from)
        .to_vec()
    };
    let own = |run: &str, role: &'static str| {
        let args = args(run, role, &format!("cache-{role}"));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        spawn(&args, &env, &logs.join(format!("{role}.log")))
    };
    let mut trainer = own("s3://oxo/run", "trainer");
    let mut gate = own("s3://oxo/run", "gate");
    let worker_args = args("s3://oxo/run", "selfplay", "cache-worker");
    let worker_args: Vec<&str> = worker_args.iter().map(String::as_str).collect();
    let worker_log = logs.join("worker.log");
    let mut worker = machine.spawn(&worker_args, &remote, &worker_log);
    for cut in 1..=2 {
        wait_for("a batch after the last cut", || {
            keys(&server, "games/").len() >= 2 * cut
        });
        machine.link(false);
        std::thread::sleep(Duration::from_secs(35));
        machine.link(true);
    }
    let limit = Duration::from_secs(240);
    for (role, child) in [
        ("trainer", &mut trainer),
        ("gate", &mut gate),
        ("worker", &mut worker),
    ] {
        let status = wait_exit(child, limit);
        let log = std::fs::read_to_string(logs.join(format!("{role}.log"))).unwrap_or_default();
        assert!(status.success(), "{role}: {log}");
    }
    let log = std::fs::read_to_string(&worker_log).unwrap();
    assert!(
        log.contains("the store cannot be reached"),
        "the cut was seen: {log}"
    );
    assert!(
        server.file("run/gate/gen-00004.json").exists(),
        "all generations"
    );
    // Every batch reads back whole: `oxo status` sums them, and the trainer checked each.
    let status = run(&["status", "--run", "s3://oxo/run"], &env);
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );

    // A link that never returns: the worker waits for its first net on a run with no
    // trainer, is cut off, and gives up after 5 s of patience.
    let patient: Vec<(&str, String)> = remote
        .iter()
        .cloned()
        .chain([("OXO_STORE_PATIENCE_SECS", "5".to_string())])
        .collect();
    let lonely_args = args("s3://oxo/lonely", "selfplay", "cache-lonely");
    let lonely_args: Vec<&str> = lonely_args.iter().map(String::as_str).collect();
    let lonely_log = logs.join("lonely.log");
    let mut lonely = machine.spawn(&lonely_args, &patient, &lonely_log);
    wait_for("the lonely worker to start", || {
        server.file("lonely/config.toml").exists()
    });
    std::thread::sleep(Duration::from_secs(1));
    machine.link(false);
    let status = wait_exit(&mut lonely, Duration::from_secs(120));
    machine.link(true);
    let log = std::fs::read_to_string(&lonely_log).unwrap();
    assert!(!status.success(), "{log}");
    assert!(log.contains("could not be reached for"), "{log}");
}

/// `oxo train --run DIR`, every role at once in one process: killed with SIGKILL mid-run,
/// the same command resumes at once (the trainer's lock died with the process: no lease to
/// wait out), the run reaches all its generations, and its log holds both processes' lines.
#[test]
fn all_roles_in_one_process_resume_at_once_after_kill_9() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("tictactoe.toml");
    std::fs::write(&config, CONFIG).unwrap();
    let store = dir.path().join("run");
    let args = [
        "train",
        "--variant",
        "tictactoe",
        "--run",
        store.to_str().unwrap(),
        "--config",
        config.to_str().unwrap(),
    ];
    let mut first = spawn(&args, &[], &dir.path().join("first.log"));
    wait_for("candidate 2", || {
        store.join("models/gen-00002.bpk").exists()
    });
    first.kill().unwrap();
    first.wait().unwrap();
    let started = Instant::now();
    let again = run(&args, &[]);
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(again.status.success(), "{stderr}");
    assert!(!stderr.contains("another trainer"), "{stderr}");
    assert!(
        store.join("gate/gen-00006.json").exists(),
        "all generations"
    );
    assert!(
        started.elapsed() < Duration::from_secs(120),
        "resumed at once"
    );
    let log = std::fs::read_to_string(store.join("log.txt")).unwrap();
    assert_eq!(log.matches("all roles at once").count(), 2, "{log}");
}
