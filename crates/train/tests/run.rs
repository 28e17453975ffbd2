//! End-to-end tests of a run on one machine, every role at once in this process, as `oxo
//! train` runs it: its journal, log and best copy, a warm start, the cell heads' targets,
//! and the provenance of its models; and bootstrap generations, their roles stepped in turn.
//! (Kill -9 of `oxo train` and of each role: crates/cli/tests/store_run.rs; damaged, copied
//! and deleted objects: store.rs.)

use std::path::{Path, PathBuf};

use oxo_nn::{Device, Net};
use oxo_rules::Game;
use oxo_train::roles::{ConfigChoice, Role, RoleOptions, StoreRun, run_role};
use oxo_train::{GenerationRecords, RunConfig};
use oxo_variants::tictactoe::TicTacToe;

/// A tiny config: a few seconds per generation on two cores.
const TINY: &str = r#"
variant = "tictactoe"
seed = 5
generations = 1
[net]
blocks = 1
channels = 8
value_hidden = 16
[selfplay]
games_per_generation = 24
parallel_games = 24
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

fn tiny() -> RunConfig {
    RunConfig::from_toml(TINY).unwrap()
}

/// Runs every role of the run of `config` in `dir` at once until it has all its
/// generations, warm-started from `init` if given; returns the run. (Its `log.txt` is the
/// CLI's: the roles' threads log to the process's global subscriber, which `oxo train` sets;
/// crates/cli/tests check it.)
fn train<G: oxo_nn::Encode + oxo_agents::Evaluate>(
    dir: &Path,
    config: &RunConfig,
    init: Option<PathBuf>,
) -> oxo_train::error::Result<StoreRun> {
    let options = RoleOptions {
        poll: std::time::Duration::from_millis(20),
        init,
        ..options(dir)
    };
    let run = open(dir, config, &options)?;
    run_role::<G>(&run, Role::All, &Device::flex(), &options)?;
    Ok(run)
}

/// The roles' options for the run in `dir`: its cache beside it.
fn options(dir: &Path) -> RoleOptions {
    RoleOptions {
        cache: Some(dir.with_extension("cache")),
        ..Default::default()
    }
}

/// Opens the run of `config` in `dir` with `options`, starting it if it is new.
fn open(
    dir: &Path,
    config: &RunConfig,
    options: &RoleOptions,
) -> oxo_train::error::Result<StoreRun> {
    StoreRun::open(
        dir.to_str().unwrap(),
        Some(&config.variant),
        ConfigChoice::Given(config.clone()),
        options,
    )
}

/// The records of the run's journal (`metrics.jsonl`) of `role`, in the order written.
fn journal(dir: &Path, role: &str) -> Vec<serde_json::Value> {
    std::fs::read_to_string(dir.join("metrics.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|r| r["role"] == role)
        .collect()
}

/// The full-search samples of every game the run's workers played.
fn samples<G: oxo_nn::Encode>(run: &StoreRun) -> Vec<oxo_train::train::Sample<G>> {
    let mut window = oxo_train::train::WindowSamples::<G>::new(usize::MAX);
    for records in games::<G>(run) {
        window.add(&run.config, &records);
    }
    window.samples
}

/// Every batch of games the run's workers played.
fn games<G: Game>(run: &StoreRun) -> Vec<GenerationRecords> {
    let dir = run.store.local_dir().unwrap();
    let mut batches = Vec::new();
    for object in run.store.list("games/").unwrap() {
        batches.push(GenerationRecords::load::<G>(&dir.join(&object.key)).unwrap());
    }
    batches
}

/// A finished run keeps, beside its store objects, what a user watches it with: the
/// journal (one line a record of every role), TensorBoard events, `run.json`, and
/// `models/best.bpk`, the best net; the same command then resumes into a finished run, and a
/// deleted or damaged best copy is written again by the gate.
#[test]
fn a_run_keeps_its_journal_and_best_copy() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("run");
    let mut config = tiny();
    config.generations = 2;
    let run = train::<TicTacToe>(&root, &config, None).unwrap();
    assert_eq!(journal(&root, "trainer").len(), 2);
    let gates = journal(&root, "gate");
    assert_eq!(gates.len(), 2);
    assert!(gates.iter().all(|g| g["games"].as_u64() > Some(0)));
    assert!(!journal(&root, "selfplay").is_empty());
    let seconds: Vec<f64> = journal(&root, "trainer")
        .iter()
        .map(|r| r["run_seconds"].as_f64().unwrap())
        .collect();
    assert!(seconds[0] > 0.0 && seconds[1] > seconds[0], "{seconds:?}");
    assert!(root.join("run.json").exists());
    let best = run.best().unwrap().unwrap();
    // TensorBoard's event file is written by its writer's thread, done once the run is closed.
    drop(run);
    assert!(std::fs::read_dir(root.join("tb")).unwrap().count() > 0);
    let best_model = std::fs::read(root.join(oxo_train::roles::model_key(best))).unwrap();
    let copy = root.join("models/best.bpk");
    assert_eq!(std::fs::read(&copy).unwrap(), best_model);
    Net::load::<TicTacToe>(&copy, &Device::flex()).unwrap();
    for damage in [None, Some(b"not a model".to_vec())] {
        match damage {
            None => std::fs::remove_file(&copy).unwrap(),
            Some(bytes) => std::fs::write(&copy, bytes).unwrap(),
        }
        train::<TicTacToe>(&root, &config, None).unwrap();
        assert_eq!(std::fs::read(&copy).unwrap(), best_model);
    }
    assert_eq!(journal(&root, "trainer").len(), 2, "nothing more trained");
}

/// A directory of the older layout (a `state.json`) is refused by every opener with what
/// to do, and nothing is written into it.
#[test]
fn a_run_directory_of_the_older_layout_is_refused_with_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("state.json"), "{}").unwrap();
    std::fs::write(dir.path().join("config.toml"), TINY).unwrap();
    let before: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    let location = dir.path().to_str().unwrap();
    let opened = [
        StoreRun::open(
            location,
            None,
            ConfigChoice::Stored,
            &RoleOptions::default(),
        ),
        StoreRun::open_to_read(location),
    ];
    for result in opened {
        let err = result.err().expect("refused").to_string();
        for said in ["state.json", "older layout", "--init", "models/best.bpk"] {
            assert!(err.contains(said), "{said}: {err}");
        }
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), before.len());
}

/// A run's first net is made from the given model's weights (`--init`), and its models'
/// provenance names the model it started from, with that model's run, and
/// counts that run's time in the total; a resumed run ignores `--init`; a model of another
/// size, or a config with bootstrap generations, is refused with a message.
#[test]
fn a_warm_started_run_begins_from_the_model() {
    let device = Device::flex();
    let source = tempfile::tempdir().unwrap();
    let first = train::<TicTacToe>(source.path(), &tiny(), None).unwrap();
    let model = source.path().join(oxo_train::roles::model_key(1));
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("run");
    let run = train::<TicTacToe>(&root, &tiny(), Some(model.clone())).unwrap();
    let game = TicTacToe::new();
    let eval = |path: &Path| {
        Net::load::<TicTacToe>(path, &device)
            .unwrap()
            .evaluate_position(&game)
    };
    let gen0 = |root: &Path| root.join(oxo_train::roles::model_key(0));
    assert_eq!(eval(&gen0(&root)), eval(&model));
    assert_ne!(eval(&gen0(source.path())), eval(&model));
    let provenance = oxo_train::export::provenance(&gen0(&root));
    let earlier = &provenance["warm_start"]["provenance"];
    assert_eq!(earlier["run"], source.path().display().to_string());
    let total = provenance["total_stage_seconds"].as_f64().unwrap();
    let own = provenance["stage_seconds"].as_f64().unwrap();
    assert!(own > 0.0 && total > own, "{provenance}");
    assert_eq!(total, own + earlier["stage_seconds"].as_f64().unwrap());
    let cpu = |p: &serde_json::Value| {
        p["stage_seconds"].as_f64().unwrap() * p["run_info"]["cores"].as_f64().unwrap()
    };
    assert_eq!(provenance["cpu_seconds"].as_f64(), Some(cpu(&provenance)));
    let chain = cpu(&provenance) + cpu(earlier);
    assert_eq!(provenance["total_cpu_seconds"].as_f64(), Some(chain));
    assert_eq!(provenance["generations_trained"], 1, "{provenance}");
    drop((first, run));
    // Resumed with an --init file that is gone: the run has its first net already.
    train::<TicTacToe>(&root, &tiny(), Some(dir.path().join("gone.bpk"))).unwrap();

    let mut bigger = tiny();
    bigger.net.channels = 16;
    let other = tempfile::tempdir().unwrap();
    let error = train::<TicTacToe>(other.path(), &bigger, Some(model.clone()))
        .err()
        .unwrap();
    assert!(error.to_string().contains("\"channels\":16"), "{error}");
    let mut bootstrapped = tiny();
    bootstrapped.selfplay.rollouts = 4;
    bootstrapped.selfplay.bootstrap_generations = 1;
    let other = tempfile::tempdir().unwrap();
    let error = train::<TicTacToe>(other.path(), &bootstrapped, Some(model))
        .err()
        .unwrap();
    assert!(
        error.to_string().contains("bootstrap_generations"),
        "{error}"
    );
}

#[test]
fn run_json_names_the_commit_oxo_was_built_from() {
    let dir = tempfile::tempdir().unwrap();
    let options = RoleOptions {
        cache: Some(dir.path().join("cache")),
        ..Default::default()
    };
    let root = dir.path().join("run");
    StoreRun::open(
        root.to_str().unwrap(),
        None,
        ConfigChoice::Given(tiny()),
        &options,
    )
    .unwrap();
    let info: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("run.json")).unwrap()).unwrap();
    // This repository is a git checkout, so the build recorded its commit (wherever the run
    // starts: the current directory does not matter).
    let commit = info["git_commit"].as_str().expect("a commit");
    assert_eq!(commit.len(), 40, "{info}");
    assert!(commit.chars().all(|c| c.is_ascii_hexdigit()), "{info}");
    assert_eq!(info["seed"], tiny().seed);
    // The engine that evaluates the net, with onnxruntime's version and library file (the
    // README's set-up installs it).
    let engine = info["engine"].as_str().expect("an engine");
    assert!(engine.starts_with("onnxruntime 1."), "{info}");
    assert!(engine.contains("libonnxruntime"), "{info}");
}

/// A bootstrap generation plays plain MCTS (every move a full search), its candidate is
/// promoted without gating games, and the next generation plays with the net and gates (and
/// is rated, the rating's time counted in the gate's). The roles take their steps in turn
/// (a batch, a candidate, a decision), so which net plays each batch is fixed: run at once,
/// self-play may play every batch of a three-generation run before the gate promotes the
/// first candidate.
#[test]
fn bootstrap_generations_search_without_the_net_and_skip_the_gate() {
    use oxo_train::roles::Progress;
    use oxo_train::roles::gate::Gate;
    use oxo_train::roles::trainer::TrainerRole;
    use oxo_train::roles::worker::Worker;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("run");
    let mut config = tiny();
    config.generations = 3;
    config.selfplay.rollouts = 4;
    config.selfplay.bootstrap_generations = 1;
    config.selfplay.bootstrap_simulations = 32;
    config.gate.rate_every = 2;
    config.gate.rate_games = 2;
    let options = options(&root);
    let run = open(&root, &config, &options).unwrap();
    let (device, observer) = (Device::flex(), oxo_train::Observer::new(false));
    let mut worker = Worker::<TicTacToe>::new();
    let mut trainer = TrainerRole::<TicTacToe>::open(&run, &device, &options).unwrap();
    let mut gate = Gate::new();
    for _ in 0..config.generations {
        assert_eq!(
            worker.step(&run, &device, 1, None).unwrap(),
            Progress::Worked
        );
        assert_eq!(trainer.step(&run, &observer).unwrap(), Progress::Worked);
        assert_eq!(
            gate.step::<TicTacToe>(&run, &device, &observer).unwrap(),
            Progress::Worked
        );
    }
    assert!(run.finished().unwrap());
    // The first batch is the first net's, and bootstraps; the later ones search with the
    // nets promoted since.
    let batches = journal(&root, "selfplay");
    let models: Vec<_> = batches
        .iter()
        .map(|b| b["model"].as_u64().unwrap())
        .collect();
    assert_eq!((models.len(), models[0]), (3, 0), "{models:?}");
    assert!(models[1..].iter().all(|&m| m > 0), "{models:?}");
    for batch in &batches {
        let bootstrap = batch["model"] == 0;
        assert_eq!(batch["bootstrap"], u8::from(bootstrap), "{batch}");
        if bootstrap {
            assert_eq!(batch["full_positions"], batch["positions"]);
        } else {
            let (full, all) = (
                batch["full_positions"].as_u64(),
                batch["positions"].as_u64(),
            );
            assert!(full.unwrap() < all.unwrap(), "{batch}");
        }
    }
    let gates = journal(&root, "gate");
    assert_eq!(
        (gates[0]["reason"].as_str(), gates[0]["games"].as_u64()),
        (Some("bootstrap"), Some(0))
    );
    assert_eq!(gates[0]["promoted"], true);
    assert!(gates[1]["games"].as_u64().unwrap() > 0, "{:?}", gates[1]);
    let rated: Vec<_> = gates
        .iter()
        .filter(|m| m.get("rating_seconds").is_some())
        .collect();
    assert_eq!(rated.len(), 1);
    assert!(rated[0]["seconds"].as_f64() >= rated[0]["rating_seconds"].as_f64());
}

/// Runs one generation of the config `toml`, whose net has a cell head
/// (`net.ownership_head`), in a temporary directory (returned with the run, to keep it), and
/// checks that its training logged the head's loss.
fn one_generation_training_the_cell_head<G: oxo_nn::Encode + oxo_agents::Evaluate>(
    toml: &str,
) -> (tempfile::TempDir, StoreRun) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("run");
    let config = RunConfig::from_toml(toml).unwrap();
    let run = train::<G>(&root, &config, None).unwrap();
    let trained = &journal(&root, "trainer")[0];
    assert!(
        trained["loss_ownership"].as_f64().unwrap() > 0.0,
        "{trained}"
    );
    (dir, run)
}

/// An ultimate run with an ownership head trains it on each cell's final owner: the samples
/// carry the owners of their game's last position, from the mover's view, and the head's
/// loss is logged.
#[test]
fn an_ownership_head_learns_who_wins_each_small_board() {
    use oxo_variants::ultimate::Ultimate;

    let ultimate = TINY
        .replace("\"tictactoe\"", "\"ultimate\"")
        .replace("[net]", "[net]\nownership_head = true")
        .replace("games_per_generation = 24", "games_per_generation = 8")
        .replace("parallel_games = 24", "parallel_games = 8");
    let (dir, run) = one_generation_training_the_cell_head::<Ultimate>(&ultimate);
    let best = dir.path().join("run/models/best.bpk");
    let net = Net::load::<Ultimate>(&best, &Device::flex()).unwrap();
    assert!(net.config().ownership_head);

    let samples = samples::<Ultimate>(&run);
    let ends: Vec<Ultimate> = games::<Ultimate>(&run)
        .iter()
        .flat_map(|records| records.games.iter().map(|g| g.replay().1))
        .collect();
    assert!(!samples.is_empty());
    for sample in &samples {
        assert_eq!(sample.cells.len(), 81);
        let mover = sample.position.to_move();
        // The sample's position leads to exactly one of the games' ends with these owners.
        let owners = |end: &Ultimate| -> Vec<f32> {
            (0..81)
                .map(|c| match end.owner(c) {
                    None => 0.0,
                    Some(p) if p == mover => 1.0,
                    Some(_) => -1.0,
                })
                .collect()
        };
        assert!(ends.iter().any(|end| owners(end) == sample.cells));
    }
    // Some boards were won: the targets are not all zero, and both signs occur.
    let all: Vec<f32> = samples.iter().flat_map(|s| s.cells.clone()).collect();
    assert!(all.contains(&1.0) && all.contains(&-1.0));
}

/// An adjacency run with the points target (`train.cell_target = "points"`) trains its cell
/// head on the margin each cell will yet make: at a scale that clips nothing, every
/// sample's targets sum to its game's final margin less the margin at the sample, from the
/// mover's view, and the head's loss is logged.
#[test]
fn a_points_target_sums_to_the_rest_of_the_games_margin() {
    use oxo_variants::adjacency::Adjacency;

    let toml = TINY
        .replace("\"tictactoe\"", "\"adjacency\"")
        .replace("[net]", "[net]\nownership_head = true\nscore_head = true")
        .replace(
            "[train]",
            "[train]\ncell_target = \"points\"\ncell_points_scale = 1000.0\nscore_scale = 50.0",
        )
        .replace("games_per_generation = 24", "games_per_generation = 4")
        .replace("parallel_games = 24", "parallel_games = 4")
        .replace("max_games = 8", "max_games = 2");
    let (_dir, run) = one_generation_training_the_cell_head::<Adjacency>(&toml);

    let samples = samples::<Adjacency>(&run);
    let finals: Vec<[i32; 2]> = games::<Adjacency>(&run)
        .iter()
        .flat_map(|records| {
            records
                .games
                .iter()
                .map(|g| g.replay::<Adjacency>().1.scores().unwrap())
        })
        .collect();
    assert!(!samples.is_empty());
    for sample in &samples {
        assert_eq!(sample.cells.len(), 121);
        let mover = sample.position.to_move();
        let margin = |s: [i32; 2]| (s[mover.index()] - s[mover.other().index()]) as f32;
        let now = margin(sample.position.scores().unwrap());
        let rest = 1000.0 * sample.cells.iter().sum::<f32>();
        assert!(
            finals
                .iter()
                .any(|&end| (margin(end) - now - rest).abs() < 0.01),
            "targets sum to {rest}, margin now {now}, finals {finals:?}"
        );
    }
}

/// A run warm-started from a net grown deeper (`oxo grow`) starts from the small net's
/// function, and its models' provenance names the grown file, the run the small net came
/// from, and counts that run's time in the total.
#[test]
fn a_run_from_a_grown_net_counts_the_small_nets_training() {
    let device = Device::flex();
    let source = tempfile::tempdir().unwrap();
    train::<TicTacToe>(source.path(), &tiny(), None).unwrap();
    let small = source.path().join(oxo_train::roles::model_key(1));
    let dir = tempfile::tempdir().unwrap();
    let grown = dir.path().join("grown.bpk");
    let blocks = tiny().net.blocks + 1;
    oxo_nn::grow_model(&small, blocks, &oxo_nn::NetShape::of::<TicTacToe>(), &grown).unwrap();
    let mut deeper = tiny();
    deeper.net.blocks = blocks;
    let root = dir.path().join("run");
    train::<TicTacToe>(&root, &deeper, Some(grown.clone())).unwrap();
    let game = TicTacToe::new();
    let eval = |path: &Path| {
        let out = Net::load::<TicTacToe>(path, &device)
            .unwrap()
            .evaluate_position(&game);
        (out.value * 1e4).round()
    };
    let gen0 = root.join(oxo_train::roles::model_key(0));
    assert_eq!(eval(&gen0), eval(&small));
    let provenance = oxo_train::export::provenance(&gen0);
    let grown_record = &provenance["warm_start"]["provenance"];
    assert_eq!(grown_record["model_file"], "grown.bpk");
    let small = &grown_record["grown_from"]["provenance"];
    assert_eq!(small["run"], source.path().display().to_string());
    let earlier = small["total_stage_seconds"].as_f64().unwrap();
    assert!(earlier > 0.0, "{provenance}");
    let own = provenance["stage_seconds"].as_f64().unwrap();
    assert_eq!(
        provenance["total_stage_seconds"].as_f64().unwrap(),
        own + earlier
    );
}

/// `oxo average` of a run's generations: the mean, kept beside them, has the run's provenance
/// and names the files it averages; a generation as trained names none.
#[test]
fn an_average_of_a_runs_generations_records_them_in_its_provenance() {
    let dir = tempfile::tempdir().unwrap();
    train::<TicTacToe>(dir.path(), &tiny(), None).unwrap();
    let first = dir.path().join(oxo_train::roles::model_key(0));
    let second = dir.path().join(oxo_train::roles::model_key(1));
    let mean = first.with_file_name("mean.bpk");
    oxo_nn::average_models(&[&first, &second], &mean).unwrap();
    let provenance = oxo_train::export::provenance(&mean);
    assert_eq!(provenance["run"], dir.path().display().to_string());
    let names = [first.display().to_string(), second.display().to_string()];
    assert_eq!(provenance["average_of"], serde_json::json!(names));
    assert!(oxo_train::export::provenance(&second)["average_of"].is_null());
}
