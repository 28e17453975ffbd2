//! A store run's history is checked, not trusted: a tiny tictactoe run over a directory store
//! (every role in this process), then its objects deleted, copied or edited as a hostile
//! tester would, and each loss refused by name rather than papered over.

use std::path::Path;

use oxo_nn::Device;
use oxo_train::RunConfig;
use oxo_train::roles::trainer::TrainerRole;
use oxo_train::roles::{ConfigChoice, Role, RoleOptions, StoreRun, run_role};
use oxo_variants::tictactoe::TicTacToe;

/// Tictactoe, 3 generations of 8 games, every candidate promoted: a second a generation.
const CONFIG: &str = r#"
variant = "tictactoe"
seed = 5
generations = 3
[net]
blocks = 1
channels = 8
value_hidden = 16
[selfplay]
games_per_generation = 8
parallel_games = 8
simulations_full = 8
simulations_fast = 4
full_search_prob = 0.5
[train]
batch_size = 16
steps_per_generation = 2
learning_rate = 0.001
min_window = 100
max_window = 1000
[gate]
mode = "always"
max_games = 4
simulations = 4
"#;

/// Opens the run in `dir` (starting it with [`CONFIG`] if it is new).
fn open(dir: &Path) -> StoreRun {
    let config = RunConfig::from_toml(CONFIG).unwrap();
    let location = dir.to_str().unwrap();
    StoreRun::open(
        location,
        Some("tictactoe"),
        ConfigChoice::Given(config),
        &options(dir),
    )
    .unwrap()
}

fn options(dir: &Path) -> RoleOptions {
    RoleOptions {
        cache: Some(dir.with_extension("cache")),
        ..Default::default()
    }
}

/// A finished run of [`CONFIG`] in a new directory.
fn finished_run() -> (tempfile::TempDir, StoreRun) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("run");
    let run = open(&root);
    run_role::<TicTacToe>(&run, Role::All, &Device::flex(), &options(&root)).unwrap();
    assert!(run.finished().unwrap());
    (dir, run)
}

fn remove(run: &StoreRun, dir: &tempfile::TempDir, key: &str) {
    let path = dir.path().join("run").join(key);
    if path.is_dir() {
        std::fs::remove_dir_all(&path).unwrap();
    } else {
        std::fs::remove_file(&path).unwrap();
    }
    assert!(!run.store.exists(key).unwrap_or(false), "{key} removed");
}

/// The best net is what the gate's decisions say; a deleted promotion is an error naming it
/// and the decision that made it (never the older promotion before it), until the gate,
/// starting, writes it again from its decision.
#[test]
fn a_deleted_promotion_is_refused_by_name_and_restored_by_the_gate() {
    let (dir, run) = finished_run();
    assert_eq!(run.best().unwrap(), Some(3));
    remove(&run, &dir, "best/gen-00003.json");
    let err = run
        .best()
        .expect_err("the newest promotion is gone")
        .to_string();
    assert!(
        err.contains("best/gen-00003.json") && err.contains("gate/gen-00003.json"),
        "{err}"
    );
    let mut gate = oxo_train::roles::gate::Gate::new();
    let observer = oxo_train::Observer::new(false);
    gate.step::<TicTacToe>(&run, &Device::flex(), &observer)
        .unwrap();
    assert_eq!(run.best().unwrap(), Some(3), "restored from the decision");
}

/// With `best/` gone the run does not restart from its first net: every reader of the best
/// net, the trainer included, stops and names what is missing; with `gate/` gone too, the
/// trainer names its checkpoints and the lost promotions.
#[test]
fn a_run_without_its_promotions_does_not_start_over() {
    let (dir, run) = finished_run();
    remove(&run, &dir, "best");
    let err = run.best().expect_err("no promotions").to_string();
    assert!(err.contains("best/gen-00003.json"), "{err}");
    let device = Device::flex();
    let root = dir.path().join("run");
    let refused =
        |run: &StoreRun| match TrainerRole::<TicTacToe>::open(run, &device, &options(&root)) {
            Ok(_) => panic!("the trainer started"),
            Err(e) => e.to_string(),
        };
    assert!(refused(&run).contains("best/gen-00003.json"));
    remove(&run, &dir, "gate");
    let err = refused(&run);
    assert!(
        err.contains("trainer/gen-00003.bpk") && err.contains("best/gen-00000.json"),
        "{err}"
    );
    assert!(
        !run.store.exists("best/gen-00000.json").unwrap(),
        "no fresh start written"
    );
}

/// A promotion that no gate decision made (the decisions lost) is refused by name.
#[test]
fn a_promotion_without_a_decision_is_refused() {
    let (dir, run) = finished_run();
    remove(&run, &dir, "gate");
    let err = run.best().expect_err("no decisions").to_string();
    assert!(
        err.contains("best/gen-00003.json") && err.contains("no gate decision"),
        "{err}"
    );
}

/// On a directory store the trainer holds a lock for its life: a second one is refused by the
/// lock's name while the first lives, and starts at once when it is gone (however it ended:
/// the operating system releases the lock of a killed process), with no lease to wait out.
#[test]
fn one_trainer_at_a_time_and_a_new_one_at_once() {
    let (dir, run) = finished_run();
    let device = Device::flex();
    let root = dir.path().join("run");
    let first = TrainerRole::<TicTacToe>::open(&run, &device, &options(&root))
        .expect("the last trainer is gone: no wait");
    let Err(err) = TrainerRole::<TicTacToe>::open(&run, &device, &options(&root)) else {
        panic!("two trainers at once")
    };
    assert!(err.to_string().contains("trainer.lock"), "{err}");
    drop(first);
    TrainerRole::<TicTacToe>::open(&run, &device, &options(&root)).expect("the lock is free");
}

/// Reading a run writes nothing: a run that is not there is reported missing (the directory
/// is not made), and a run whose `run.json` is gone is read without one being written.
#[test]
fn reading_a_run_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing");
    for location in [
        missing.display().to_string(),
        format!("file://{}", missing.display()),
    ] {
        let Err(err) = StoreRun::open_to_read(&location) else {
            panic!("{location}: opened")
        };
        assert!(err.to_string().contains("no run here"), "{err}");
        assert!(!missing.exists(), "{location}: made");
    }
    let (dir, run) = finished_run();
    remove(&run, &dir, "run.json");
    let before = files(&dir.path().join("run"));
    let read = StoreRun::open_to_read(dir.path().join("run").to_str().unwrap()).unwrap();
    let report = oxo_train::roles::status::report(&read).unwrap();
    // Each worker's totals come from its newest record alone: batches of 8 games.
    let line = report
        .lines()
        .find(|l| l.contains(" batches, "))
        .expect(&report);
    let count = |word: &str| -> u64 {
        let before = &line[..line.find(word).expect(word)];
        before.rsplit(' ').next().unwrap().parse().unwrap()
    };
    let (batches, games) = (count(" batches"), count(" games,"));
    assert!(batches >= 3 && games == 8 * batches, "{report}");
    assert_eq!(files(&dir.path().join("run")), before, "nothing written");
}

/// Every file under `dir`, with its size.
fn files(dir: &Path) -> Vec<(std::path::PathBuf, u64)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let size = path.metadata().unwrap().len();
                out.push((path, size));
            }
        }
    }
    out.sort();
    out
}

/// A game batch copied under another name (another worker's, or the same worker's with
/// another sequence number) is known by its content: never claimed as new games, nor put in
/// a replay window, so it is trained on once.
#[test]
fn a_copied_game_batch_is_trained_on_once() {
    use oxo_train::roles::gate::Gate;
    use oxo_train::roles::trainer::read_claim;
    use oxo_train::roles::worker::Worker;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("run");
    let run = open(&root);
    let (device, observer) = (Device::flex(), oxo_train::Observer::new(false));
    let mut worker = Worker::<TicTacToe>::new();
    let mut trainer = TrainerRole::<TicTacToe>::open(&run, &device, &options(&root)).unwrap();
    let mut gate = Gate::new();
    let mut generation = || {
        worker.step(&run, &device, 1, None).unwrap();
        let trained = trainer.step(&run, &observer).unwrap();
        gate.step::<TicTacToe>(&run, &device, &observer).unwrap();
        trained
    };
    assert_eq!(generation(), oxo_train::roles::Progress::Worked);
    // A copy under another worker's name, then one under the same worker's name with
    // another sequence number, each after a generation.
    for (generation_number, copy_name) in [(2, "another_worker-000000.bin"), (3, "")] {
        let last = read_claim(&run, generation_number - 1).unwrap().unwrap();
        let original = &last.games[0];
        let (folder, name) = original.rsplit_once('/').unwrap();
        let (writer, _) = name.rsplit_once('-').unwrap();
        let copy = match copy_name {
            "" => format!("{folder}/{writer}-000042.bin"),
            other => format!("{folder}/{other}"),
        };
        std::fs::copy(root.join(original), root.join(&copy)).unwrap();
        assert_eq!(generation(), oxo_train::roles::Progress::Worked);
        let claim = read_claim(&run, generation_number).unwrap().unwrap();
        assert_eq!(
            claim.games.len(),
            1,
            "only the new batch: {:?}",
            claim.games
        );
        assert!(
            !claim.games.contains(&copy) && !claim.window.contains(&copy),
            "{copy}"
        );
        assert_ne!(claim.digests[0], last.digests[0]);
    }
}

/// A stray object under `games/` stops the trainer with its name and what to do; once it is
/// moved out, the trainer goes on.
#[test]
fn a_stray_game_object_is_named_with_what_to_do() {
    use oxo_train::roles::worker::Worker;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("run");
    let run = open(&root);
    let (device, observer) = (Device::flex(), oxo_train::Observer::new(false));
    let mut trainer = TrainerRole::<TicTacToe>::open(&run, &device, &options(&root)).unwrap();
    Worker::<TicTacToe>::new()
        .step(&run, &device, 1, None)
        .unwrap();
    std::fs::write(root.join("games/junk.bin"), b"not games").unwrap();
    let err = trainer.step(&run, &observer).expect_err("junk").to_string();
    assert!(
        err.contains("games/junk.bin") && err.contains("move it out"),
        "{err}"
    );
    std::fs::remove_file(root.join("games/junk.bin")).unwrap();
    assert_eq!(
        trainer.step(&run, &observer).unwrap(),
        oxo_train::roles::Progress::Worked
    );
}

/// An edited `config.toml` is refused by every process that opens the run (the reader
/// too), naming the setting as it is now and as the run started.
#[test]
fn an_edited_config_is_refused_with_both_values() {
    let (dir, _run) = finished_run();
    let root = dir.path().join("run");
    let path = root.join("config.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("seed = 5", "seed = 6")).unwrap();
    let location = root.to_str().unwrap();
    let config = RunConfig::from_toml(CONFIG).unwrap();
    let errors = [
        StoreRun::open(
            location,
            None,
            ConfigChoice::StoredOr(config),
            &options(&root),
        )
        .err(),
        StoreRun::open_to_read(location).err(),
    ];
    for err in errors {
        let err = err.expect("refused").to_string();
        assert!(
            err.contains("`seed = 6`") && err.contains("`seed = 5`") && err.contains("run.json"),
            "{err}"
        );
    }
}

/// A gate killed between its first promotion and the decision behind it (the promotion is
/// written first) leaves the first net the best, not an error.
#[test]
fn a_first_promotion_without_its_decision_is_a_gate_killed_midway() {
    let (dir, run) = finished_run();
    for key in ["gate", "best/gen-00002.json", "best/gen-00003.json"] {
        remove(&run, &dir, key);
    }
    assert_eq!(run.best().unwrap(), Some(0));
}
