//! End-to-end tests of the training loop on tictactoe: stop and resume, `kill -9` during each
//! stage and resume, and a short run whose net never loses to the solver.

use std::path::Path;
use std::time::{Duration, Instant};

use oxo_nn::{Device, Net};
use oxo_rules::Game;
use oxo_rules::tictactoe::TicTacToe;
use oxo_train::{GenerationRecords, LoopOptions, RunConfig, RunDir, Stage, State, run_loop};
use tracing_subscriber::layer::SubscriberExt;

/// A tiny config: a few seconds per generation on two cores.
const TINY: &str = r#"
variant = "tictactoe"
seed = 5
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

/// `run_loop` with the run's `log.txt` receiving its events, as `oxo train` sets it up.
fn logged_loop(
    run: &RunDir,
    device: &Device,
    options: &LoopOptions,
) -> oxo_train::rundir::Result<State> {
    let layer = oxo_train::logging::run_log_layer(run).unwrap();
    let subscriber = tracing_subscriber::registry().with(layer);
    tracing::subscriber::with_default(subscriber, || run_loop::<TicTacToe>(run, device, options))
}

/// Checks every file a finished stage left: the state's counters agree with the game files
/// and every model and game file loads.
fn check_run(run: &RunDir) {
    let state = run.state().unwrap();
    let mut games = 0;
    let done_selfplay = if state.next == Stage::SelfPlay {
        state.generation - 1
    } else {
        state.generation
    };
    for g in 1..=done_selfplay {
        let records = GenerationRecords::load::<TicTacToe>(&run.selfplay_path(g)).unwrap();
        games += records.games.len() as u64;
    }
    assert_eq!(state.total_games, games, "{state:?}");
    assert_eq!(
        games,
        done_selfplay * run.config().selfplay.games_per_generation as u64
    );
    Net::load::<TicTacToe>(&run.model_path(state.best), &Device::flex()).unwrap();
    Net::load::<TicTacToe>(&run.best_path(), &Device::flex()).unwrap();
    let trained = if state.next == Stage::Gate {
        state.generation
    } else {
        state.generation - 1
    };
    for g in 0..=trained {
        Net::load::<TicTacToe>(&run.model_path(g), &Device::flex()).unwrap();
    }
}

#[test]
fn a_stopped_run_resumes_where_it_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let run = RunDir::open(dir.path(), &tiny()).unwrap();
    let mut options = LoopOptions {
        max_stages: Some(1),
        ..LoopOptions::default()
    };
    let mut expected = [
        (1, Stage::Train),
        (1, Stage::Gate),
        (2, Stage::SelfPlay),
        (2, Stage::Train),
    ]
    .into_iter();
    for _ in 0..4 {
        // A fresh RunDir each time, as a new process would open it.
        let run = RunDir::open(dir.path(), &tiny()).unwrap();
        let state = run_loop::<TicTacToe>(&run, &Device::flex(), &options).unwrap();
        assert_eq!(Some((state.generation, state.next)), expected.next());
        check_run(&run);
    }
    options.max_stages = Some(2);
    let state = run_loop::<TicTacToe>(&run, &Device::flex(), &options).unwrap();
    assert_eq!((state.generation, state.next), (3, Stage::SelfPlay));
    assert_eq!(state.total_games, 48);
    check_run(&run);
    let metrics = std::fs::read_to_string(run.metrics_path()).unwrap();
    assert_eq!(metrics.lines().count(), 6, "{metrics}");
    let gating = std::fs::read_to_string(run.gating_path()).unwrap();
    assert_eq!(gating.lines().count(), 2);
    assert!(run.root().join("run.json").exists());
    assert!(std::fs::read_dir(run.tb_path()).unwrap().count() > 0);
}

/// A run directory after its first stage (generation 1's self-play), and the options that
/// run one stage.
fn after_one_stage() -> (tempfile::TempDir, RunDir, LoopOptions) {
    let dir = tempfile::tempdir().unwrap();
    let run = RunDir::open(dir.path(), &tiny()).unwrap();
    let options = LoopOptions {
        max_stages: Some(1),
        ..LoopOptions::default()
    };
    run_loop::<TicTacToe>(&run, &Device::flex(), &options).unwrap();
    (dir, run, options)
}

/// A run directory whose `state.json` is gone is refused, never started afresh over the old
/// run: its models and games stay as they were.
#[test]
fn a_run_without_its_state_is_refused_not_restarted() {
    let (dir, run, options) = after_one_stage();
    let model = std::fs::read(run.model_path(0)).unwrap();
    let games = std::fs::read(run.selfplay_path(1)).unwrap();
    std::fs::remove_file(run.state_path()).unwrap();
    let run = RunDir::open(dir.path(), &tiny()).unwrap();
    let err = run_loop::<TicTacToe>(&run, &Device::flex(), &options)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("state.json") && err.contains("holds a run"),
        "{err}"
    );
    assert_eq!(std::fs::read(run.model_path(0)).unwrap(), model);
    assert_eq!(std::fs::read(run.selfplay_path(1)).unwrap(), games);
    assert!(!run.state_path().exists());
}

/// A deleted or damaged `models/best.bpk` is restored from the model the state names when
/// the run resumes; a damaged game file stops the run with an error naming it.
#[test]
fn a_missing_or_damaged_best_copy_is_restored_and_bad_games_are_refused() {
    let (dir, run, options) = after_one_stage();
    let best = std::fs::read(run.model_path(0)).unwrap();
    for damage in [None, Some(b"not a model".to_vec())] {
        match damage {
            None => std::fs::remove_file(run.best_path()).unwrap(),
            Some(bytes) => std::fs::write(run.best_path(), bytes).unwrap(),
        }
        let resume = LoopOptions {
            max_stages: Some(0),
            ..LoopOptions::default()
        };
        let run = RunDir::open(dir.path(), &tiny()).unwrap();
        logged_loop(&run, &Device::flex(), &resume).unwrap();
        assert_eq!(std::fs::read(run.best_path()).unwrap(), best);
    }
    let log = std::fs::read_to_string(run.log_path()).unwrap();
    assert!(log.contains("restored"), "{log}");
    // Generation 1's games, one byte flipped: the trainer refuses them by name.
    let games = run.selfplay_path(1);
    let mut bytes = std::fs::read(&games).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    std::fs::write(&games, bytes).unwrap();
    let run = RunDir::open(dir.path(), &tiny()).unwrap();
    let err = run_loop::<TicTacToe>(&run, &Device::flex(), &options)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("gen-00001") && err.contains("checksum"),
        "{err}"
    );
}

/// A tiny run in `dir` taken through one generation (self-play, training, gate): its models
/// 0 and 1 exist.
fn one_generation_run(dir: &Path, device: &Device) -> RunDir {
    let run = RunDir::open(dir, &tiny()).unwrap();
    let one_generation = LoopOptions {
        max_stages: Some(3),
        ..LoopOptions::default()
    };
    run_loop::<TicTacToe>(&run, device, &one_generation).unwrap();
    run
}

/// `--init`: a new run's generation 0 is the given model, the log says so, and a resumed
/// run ignores it; a model of another size or a config with bootstrap generations is
/// refused with a message.
#[test]
fn a_warm_started_run_begins_from_the_model() {
    let device = Device::flex();
    let source = tempfile::tempdir().unwrap();
    let first = one_generation_run(source.path(), &device);
    let model = first.model_path(1);

    let dir = tempfile::tempdir().unwrap();
    let run = RunDir::open(dir.path(), &tiny()).unwrap();
    let options = LoopOptions {
        max_stages: Some(1),
        init: Some(model.clone()),
        ..LoopOptions::default()
    };
    logged_loop(&run, &device, &options).unwrap();
    let game = TicTacToe::new();
    let eval = |path: &Path| {
        Net::load::<TicTacToe>(path, &device)
            .unwrap()
            .evaluate_position(&game)
    };
    assert_eq!(eval(&run.model_path(0)), eval(&model));
    assert_ne!(eval(&first.model_path(0)), eval(&model));
    let log = std::fs::read_to_string(run.log_path()).unwrap();
    assert!(log.contains("from the weights of"), "{log}");
    // The provenance of the run's models names the model it started from, with its run,
    // and counts that run's stage time in the total.
    let provenance = oxo_train::export::provenance(&run.model_path(0));
    let earlier = &provenance["warm_start"]["provenance"];
    assert_eq!(earlier["run"], first.root().display().to_string());
    let total = provenance["total_stage_seconds"].as_f64().unwrap();
    let own = provenance["stage_seconds"].as_f64().unwrap();
    assert!(total > own, "{provenance}");
    assert_eq!(total, own + earlier["stage_seconds"].as_f64().unwrap());
    // Resuming with a missing --init file works: the run already has its generation 0.
    let resumed = LoopOptions {
        init: Some(dir.path().join("gone.bpk")),
        ..options.clone()
    };
    let state = run_loop::<TicTacToe>(&run, &device, &resumed).unwrap();
    assert_eq!((state.generation, state.next), (1, Stage::Gate));

    let mut bigger = tiny();
    bigger.net.channels = 16;
    let other = tempfile::tempdir().unwrap();
    let run = RunDir::open(other.path(), &bigger).unwrap();
    let error = run_loop::<TicTacToe>(&run, &device, &options).unwrap_err();
    assert!(error.to_string().contains("\"channels\":16"), "{error}");

    let mut bootstrapped = tiny();
    bootstrapped.selfplay.rollouts = 4;
    bootstrapped.selfplay.bootstrap_generations = 1;
    let other = tempfile::tempdir().unwrap();
    let run = RunDir::open(other.path(), &bootstrapped).unwrap();
    let error = run_loop::<TicTacToe>(&run, &device, &options).unwrap_err();
    assert!(
        error.to_string().contains("bootstrap_generations"),
        "{error}"
    );
}

/// The child side of the kill test: runs the loop on the directory in `OXO_KILL_DIR`.
#[test]
fn child_loop() {
    let Ok(dir) = std::env::var("OXO_KILL_DIR") else {
        return;
    };
    let mut config = tiny();
    // Longer stages, so the parent's kill lands inside them (self-play on onnxruntime plays
    // 200 tictactoe games in under the 40 ms the parent waits).
    config.selfplay.games_per_generation = 2000;
    config.train.steps_per_generation = 200;
    config.gate.max_games = 400;
    config.gate.simulations = 64;
    config.gate.mode = oxo_train::config::GateMode::Threshold;
    let run = RunDir::open(Path::new(&dir), &config).unwrap();
    run_loop::<TicTacToe>(&run, &Device::flex(), &LoopOptions::default()).unwrap();
}

#[test]
fn kill_9_during_each_stage_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = tiny();
    config.selfplay.games_per_generation = 2000;
    config.train.steps_per_generation = 200;
    config.gate.max_games = 400;
    config.gate.simulations = 64;
    config.gate.mode = oxo_train::config::GateMode::Threshold;
    for target in [Stage::SelfPlay, Stage::Train, Stage::Gate] {
        let run = RunDir::open(dir.path(), &config).unwrap();
        let mut child = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "child_loop", "--nocapture"])
            .env("OXO_KILL_DIR", dir.path())
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let start = Instant::now();
        let mut killed_at = None;
        while start.elapsed() < Duration::from_secs(120) {
            if let Ok(Some(state)) = run.read_state()
                && state.next == target
            {
                // Inside the stage: let it work a little, then kill it.
                std::thread::sleep(Duration::from_millis(40));
                child.kill().unwrap(); // SIGKILL
                killed_at = Some(state);
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        child.wait().unwrap();
        let before = killed_at.expect("the child reached the stage");
        // The state is readable and no later than the kill; resuming finishes the stage.
        let run = RunDir::open(dir.path(), &config).unwrap();
        let after = run.state().unwrap();
        // The kill landed inside the stage: it had not finished.
        assert_eq!((after.generation, after.next), (before.generation, target));
        check_run(&run);
        let options = LoopOptions {
            max_stages: Some(1),
            ..LoopOptions::default()
        };
        run_loop::<TicTacToe>(&run, &Device::flex(), &options).unwrap();
        check_run(&run);
    }
}

#[test]
fn run_json_names_the_commit_oxo_was_built_from() {
    let dir = tempfile::tempdir().unwrap();
    let run = RunDir::open(dir.path(), &tiny()).unwrap();
    run.write_info(vec!["oxo".into(), "train".into()]).unwrap();
    let info: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.info_path()).unwrap()).unwrap();
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
/// is rated, inside its gate stage's time).
#[test]
fn bootstrap_generations_search_without_the_net_and_skip_the_gate() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = tiny();
    config.generations = 2;
    config.selfplay.rollouts = 4;
    config.selfplay.bootstrap_generations = 1;
    config.selfplay.bootstrap_simulations = 32;
    config.gate.rate_every = 2;
    config.gate.rate_games = 2;
    let run = RunDir::open(dir.path(), &config).unwrap();
    let state = run_loop::<TicTacToe>(&run, &Device::flex(), &LoopOptions::default()).unwrap();
    assert_eq!(state.generation, 3);
    check_run(&run);
    let lines = |path: &Path| -> Vec<serde_json::Value> {
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let metrics = lines(&run.metrics_path());
    let selfplay: Vec<_> = metrics
        .iter()
        .filter(|m| m["stage"] == "selfplay")
        .collect();
    assert_eq!(selfplay[0]["bootstrap"], 1);
    assert_eq!(selfplay[0]["full_positions"], selfplay[0]["positions"]);
    assert_eq!(selfplay[1]["bootstrap"], 0);
    let gates = lines(&run.gating_path());
    assert_eq!(
        (gates[0]["reason"].as_str(), gates[0]["games"].as_u64()),
        (Some("bootstrap"), Some(0))
    );
    assert_eq!(gates[0]["promoted"], true);
    assert!(gates[1]["games"].as_u64().unwrap() > 0, "{:?}", gates[1]);
    // The rated generation's gate stage counts its rating's time in its own.
    let rated: Vec<_> = metrics
        .iter()
        .filter(|m| m["stage"] == "gate" && m.get("rating_seconds").is_some())
        .collect();
    assert_eq!(rated.len(), 1);
    assert!(rated[0]["seconds"].as_f64() >= rated[0]["rating_seconds"].as_f64());
}

/// Runs one generation of the config `toml`, whose net has a cell head
/// (`net.ownership_head`), in a temporary directory (returned with the run, to keep it), and
/// checks that its training stage logged the head's loss.
fn one_generation_training_the_cell_head<G: oxo_nn::Encode + oxo_agents::Evaluate>(
    toml: &str,
) -> (tempfile::TempDir, RunDir) {
    let dir = tempfile::tempdir().unwrap();
    let mut config = RunConfig::from_toml(toml).unwrap();
    config.generations = 1;
    let run = RunDir::open(dir.path(), &config).unwrap();
    run_loop::<G>(&run, &Device::flex(), &LoopOptions::default()).unwrap();
    let trained = std::fs::read_to_string(run.metrics_path())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|m| m["stage"] == "train")
        .unwrap();
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
    use oxo_rules::ultimate::Ultimate;

    let ultimate = TINY
        .replace("\"tictactoe\"", "\"ultimate\"")
        .replace("[net]", "[net]\nownership_head = true")
        .replace("games_per_generation = 24", "games_per_generation = 8")
        .replace("parallel_games = 24", "parallel_games = 8");
    let (_dir, run) = one_generation_training_the_cell_head::<Ultimate>(&ultimate);
    assert!(
        Net::load::<Ultimate>(&run.best_path(), &Device::flex())
            .unwrap()
            .config()
            .ownership_head
    );

    let samples = oxo_train::train::load_window::<Ultimate>(&run, 1, 1_000_000)
        .unwrap()
        .samples;
    let records = GenerationRecords::load::<Ultimate>(&run.selfplay_path(1)).unwrap();
    let ends: Vec<Ultimate> = records.games.iter().map(|g| g.replay().1).collect();
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
    use oxo_rules::adjacency::Adjacency;

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

    let samples = oxo_train::train::load_window::<Adjacency>(&run, 1, 1_000_000)
        .unwrap()
        .samples;
    let records = GenerationRecords::load::<Adjacency>(&run.selfplay_path(1)).unwrap();
    let finals: Vec<[i32; 2]> = records
        .games
        .iter()
        .map(|g| g.replay::<Adjacency>().1.scores().unwrap())
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
/// from, and counts that run's stage time in the total.
#[test]
fn a_run_from_a_grown_net_counts_the_small_nets_training() {
    let device = Device::flex();
    let source = tempfile::tempdir().unwrap();
    let first = one_generation_run(source.path(), &device);
    let dir = tempfile::tempdir().unwrap();
    let grown = dir.path().join("grown.bpk");
    let blocks = tiny().net.blocks + 1;
    oxo_nn::grow_model(
        &first.model_path(1),
        blocks,
        &oxo_nn::NetShape::of::<TicTacToe>(),
        &grown,
    )
    .unwrap();
    let mut deeper = tiny();
    deeper.net.blocks = blocks;
    let run_dir = dir.path().join("run");
    let run = RunDir::open(&run_dir, &deeper).unwrap();
    let options = LoopOptions {
        max_stages: Some(1),
        init: Some(grown.clone()),
        ..LoopOptions::default()
    };
    logged_loop(&run, &device, &options).unwrap();
    let game = TicTacToe::new();
    let eval = |path: &Path| {
        let out = Net::load::<TicTacToe>(path, &device)
            .unwrap()
            .evaluate_position(&game);
        (out.value * 1e4).round()
    };
    assert_eq!(eval(&run.model_path(0)), eval(&first.model_path(1)));
    let provenance = oxo_train::export::provenance(&run.model_path(0));
    let grown_record = &provenance["warm_start"]["provenance"];
    assert_eq!(grown_record["model_file"], "grown.bpk");
    let small = &grown_record["grown_from"]["provenance"];
    assert_eq!(small["run"], first.root().display().to_string());
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
    let run = one_generation_run(dir.path(), &Device::flex());
    let (first, second) = (run.model_path(0), run.model_path(1));
    let mean = first.with_file_name("mean.bpk");
    oxo_nn::average_models(&[&first, &second], &mean).unwrap();
    let provenance = oxo_train::export::provenance(&mean);
    assert_eq!(provenance["run"], run.root().display().to_string());
    let names = [first.display().to_string(), second.display().to_string()];
    assert_eq!(provenance["average_of"], serde_json::json!(names));
    assert!(oxo_train::export::provenance(&second)["average_of"].is_null());
}
