//! `oxo export`: one trained network as a directory that other programs can use without oxo:
//! `model.onnx` (dynamic batch axis, named input and outputs), `model.safetensors` (PyTorch
//! names), `model.bpk` (the file oxo loads), `model.json` (the contract: the exact input
//! encoding, the action-index mapping, the outputs and their meaning, how to play it,
//! provenance) and a
//! `README.md` on how to run it.

use std::fs;
use std::path::{Path, PathBuf};

use oxo_nn::{
    BATCH_AXIS, Device, Encode, FileInfo, INPUT_NAME, Net, NetConfig, POLICY_OUTPUT, SCORE_OUTPUT,
    WDL_OUTPUT,
};
use oxo_play::model_json::{
    ActionsDescription, Dim, InputDescription, MODEL_FORMAT, MODEL_FORMAT_VERSION, ModelJson,
    NetworkDescription, OutputDescription, PlaneDescription, RulesRef,
};
use oxo_play::{NetValue, PlaySettings};
use oxo_player::ModelFile;
use oxo_rules::Action;
use serde_json::{Value, json};

use crate::config::RunConfig;
use crate::error::{Result, TrainError, io_error, write_atomic};

/// The files an export writes, in the order written.
pub const EXPORT_FILES: [&str; 5] = [
    "model.bpk",
    "model.onnx",
    "model.safetensors",
    "model.json",
    "README.md",
];

/// Exports the model (or checkpoint) at `model`, of variant `G`, into directory `out`
/// (created if needed; files in it are replaced atomically), recording `search` (a `net:`
/// spec's search parameters, checked by
/// [`check_search_params`](crate::play_search::check_search_params)) as the search it plays
/// best with, and `value` as the value it plays best with (`None`: the value its run trained
/// with, see [`play_settings`]). Returns the paths written.
pub fn export_model<G: Encode>(
    model: &Path,
    out: &Path,
    search: &str,
    value: Option<NetValue>,
) -> Result<Vec<PathBuf>> {
    let net = Net::load::<G>(model, &Device::flex())?;
    fs::create_dir_all(out).map_err(|e| io_error(out, e))?;
    let paths: Vec<PathBuf> = EXPORT_FILES.iter().map(|f| out.join(f)).collect();
    net.save(&paths[0])?;
    write_atomic(&paths[1], &net.to_onnx()?)?;
    write_atomic(&paths[2], &net.to_safetensors()?)?;
    let play = play_settings::<G>(model, search, value)?;
    let description = describe::<G>(net.config(), provenance(model), play);
    write_atomic(&paths[3], description.to_text().as_bytes())?;
    write_atomic(&paths[4], readme::<G>(&net).as_bytes())?;
    Ok(paths)
}

/// `model.json`: everything a front end needs to feed the network of size `config` and read
/// its answer, how oxo plays it (`play`), and how it was made (`provenance`).
pub fn describe<G: Encode>(config: &NetConfig, provenance: Value, play: PlaySettings) -> ModelJson {
    let batch = || Dim::Axis(BATCH_AXIS.to_string());
    let planes = G::plane_names()
        .iter()
        .enumerate()
        .map(|(index, text)| PlaneDescription {
            index,
            description: text.to_string(),
        })
        .collect();
    let moves = (0..G::NUM_ACTIONS as Action)
        .map(G::format_action)
        .collect();
    let output = |name: &str, size: usize, meaning: &str| OutputDescription {
        name: name.to_string(),
        shape: vec![batch(), Dim::Size(size)],
        meaning: meaning.to_string(),
        scale: None,
    };
    let mut outputs = vec![
        output(
            POLICY_OUTPUT,
            G::NUM_ACTIONS,
            "unnormalised log-probabilities of every action index (actions.moves); set \
             illegal moves to -inf, then softmax",
        ),
        output(
            WDL_OUTPUT,
            3,
            "win, draw and loss logits for the player to move; after a softmax, value = \
             p(win) - p(loss), in [-1, 1]",
        ),
    ];
    if config.score_head {
        outputs.push(OutputDescription {
            scale: provenance["score_scale"].as_f64(),
            ..output(SCORE_OUTPUT, 1, SCORE_MEANING)
        });
    }
    ModelJson {
        format: MODEL_FORMAT.to_string(),
        format_version: MODEL_FORMAT_VERSION,
        variant: G::NAME.to_string(),
        rules: RulesRef {
            version: oxo_rules::RULES_VERSION.to_string(),
            text: "docs/RULES.md of the oxo repository".to_string(),
        },
        oxo_version: env!("CARGO_PKG_VERSION").to_string(),
        network: network_description(config),
        input: InputDescription {
            name: INPUT_NAME.to_string(),
            dtype: "float32".to_string(),
            shape: vec![
                batch(),
                Dim::Size(G::PLANES),
                Dim::Size(G::HEIGHT),
                Dim::Size(G::WIDTH),
            ],
            layout: "plane-major: element (plane, row, column); cell (row, column) is cell \
                     index row * width + column (docs/RULES.md), the action index of a move \
                     on it"
                .to_string(),
            point_of_view: "the player to move: 'mover' planes hold the marks of the player \
                            whose turn it is, 'opponent' planes the other's; no history"
                .to_string(),
            planes,
        },
        actions: ActionsDescription {
            count: G::NUM_ACTIONS,
            moves,
            note: "moves[i] is action index i in oxo's notation (as `oxo gtp` prints and \
                   accepts it); not every index is legal in every position"
                .to_string(),
        },
        outputs,
        play,
        provenance,
    }
}

/// What the score output means.
const SCORE_MEANING: &str = "predicted final score margin, player to move minus opponent, \
    divided by the run's train.score_scale (`scale`, where known: the output times it is the \
    margin in points) and clipped to [-1, 1] in training; where the run sets \
    train.outright_win_score, a game won by an event the scores do not count (a big-board \
    pattern, a line) trained toward plus or minus that value instead";

/// `model.json`'s `network`: `config` with notes for readers.
fn network_description(config: &NetConfig) -> NetworkDescription {
    NetworkDescription {
        kind: "residual convolutional network (AlphaZero style)".to_string(),
        blocks: config.blocks,
        channels: config.channels,
        patch: config.patch,
        patch_note: "side of the stem's square patches: 1, a vector per cell; p > 1, a \
                     convolution with kernel and stride p makes one per p x p block, the \
                     trunk runs on the block grid and each block's vector gives its own \
                     cells' policy logits"
            .to_string(),
        policy_channels: config.policy_channels,
        value_channels: config.value_channels,
        value_hidden: config.value_hidden,
        score_head: config.score_head,
        ownership_head: config.ownership_head,
        ownership_note: "a training-only head (each cell's final owner, or in a run with \
                         train.cell_target \"points\" the score margin still to be made \
                         there); not an ONNX output, its weights are in the safetensors file"
            .to_string(),
    }
}

/// `models/model.json` of a run: the description every net of the run in `models/` shares
/// (they have the run's network), playing with oxo's default search and the value the run
/// trains and gates with, so `net:path=RUN/models/best.bpk` plays the run's net as the run
/// does. `oxo export` of one of them writes its full provenance.
pub fn run_models_description<G: Encode>(config: &RunConfig) -> ModelJson {
    let provenance = json!({
        "note": "the nets of one run; `oxo export --model FILE` records a net's own provenance"
    });
    let play = PlaySettings::new(
        oxo_play::play_search::DEFAULT_PLAY_SEARCH,
        config.net_value(),
    );
    describe::<G>(&config.net, provenance, play)
}

/// What is known of how the model was made: when it lies in a run directory
/// (`RUN/models/FILE.bpk`), the run's seed, versions, commit, its progress and last rating
/// (from its journal, `metrics.jsonl`), its wall-clock seconds (`stage_seconds`), and for a
/// warm-started run (`oxo train --init`) the provenance of the model it started from
/// (`warm_start`) and the seconds of the whole chain (`total_stage_seconds`); its CPU
/// seconds, the wall-clock seconds times the cores `run.json` gave the run (`cpu_seconds`),
/// and those of the whole chain (`total_cpu_seconds`); in an exported directory, the
/// provenance its `model.json` records.
pub fn provenance(model: &Path) -> Value {
    provenance_at(model, 0)
}

/// [`provenance`] of a model `depth` grown files down a chain ([`file_provenance`]).
fn provenance_at(model: &Path, depth: usize) -> Value {
    let Some(run) = run_of(model) else {
        return exported_provenance(model).unwrap_or_else(|| file_provenance(model, depth));
    };
    let read = |name: &str| -> Value {
        fs::read_to_string(run.join(name))
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or(Value::Null)
    };
    let metrics = read_jsonl(&run.join("metrics.jsonl"));
    let warm_start = read(WARM_START_FILE);
    let run_info = read("run.json");
    let seconds = run_seconds(&metrics);
    let cpu_seconds = run_info["cores"].as_f64().map(|cores| seconds * cores);
    let earlier_seconds = warm_start["provenance"]["total_stage_seconds"]
        .as_f64()
        .or_else(|| warm_start["provenance"]["stage_seconds"].as_f64())
        .unwrap_or(0.0);
    let trained: Vec<&Value> = metrics
        .iter()
        .filter(|r| is_role(r, "trainer", "train"))
        .collect();
    json!({
        "model_file": file_name(model),
        "average_of": average_of(model),
        "run": run.display().to_string(),
        "run_info": run_info,
        "best_generation": best_generation(&metrics),
        "generations_trained": trained.len(),
        "train_steps": trained.iter().filter_map(|r| r["steps"].as_u64()).sum::<u64>(),
        "self_play_games": metrics
            .iter()
            .filter(|r| is_role(r, "selfplay", "selfplay"))
            .filter_map(|r| r["games"].as_u64())
            .sum::<u64>(),
        "last_rating": last_rating(&metrics),
        "score_scale": run_config(run).map(|c| c.train.score_scale),
        "stage_seconds": seconds,
        "cpu_seconds": cpu_seconds,
        "total_cpu_seconds": cpu_seconds
            .zip(chain_cpu_seconds(&warm_start["provenance"]))
            .map(|(own, earlier)| own + earlier),
        "warm_start": warm_start,
        "total_stage_seconds": seconds + earlier_seconds,
    })
}

/// The CPU seconds of the chain of runs a provenance record describes: its
/// `total_cpu_seconds` where it has one, else its run's seconds times the cores its
/// `run.json` gave it plus those of the model it started from or grew from (an exported
/// `model.json` of an older oxo). None where some link's cores are unknown (a model file
/// outside any run); 0 for no record (a run that started from nothing).
fn chain_cpu_seconds(provenance: &Value) -> Option<f64> {
    if provenance.is_null() {
        return Some(0.0);
    }
    if let Some(total) = provenance["total_cpu_seconds"].as_f64() {
        return Some(total);
    }
    if let Some(grown) = provenance.get("grown_from") {
        return chain_cpu_seconds(&grown["provenance"]);
    }
    let own = provenance["stage_seconds"].as_f64()? * provenance["run_info"]["cores"].as_f64()?;
    Some(own + chain_cpu_seconds(&provenance["warm_start"]["provenance"])?)
}

/// Whether a journal record is of `role` (a record of a run whose roles run at once), or of
/// the stage `stage` (a run of the older layout, whose stages ran one after another).
fn is_role(record: &Value, role: &str, stage: &str) -> bool {
    record["role"].as_str() == Some(role) || record["stage"].as_str() == Some(stage)
}

/// The generation of the best net by a run's gate records: the last promoted candidate (0,
/// the first net, if none was).
fn best_generation(metrics: &[Value]) -> u64 {
    metrics
        .iter()
        .rev()
        .filter(|r| is_role(r, "gate", "gate"))
        .filter(|r| r["promoted"].as_bool() == Some(true) || r["promoted"].as_u64() == Some(1))
        .find_map(|r| r["candidate"].as_u64())
        .unwrap_or(0)
}

/// How many grown files [`file_provenance`] follows back before it stops: a chain of
/// `oxo grow` files longer than any real one, and an end to a cycle of overwritten files.
const MAX_GROWN_CHAIN: usize = 8;

/// What a model file outside a run says of itself: its name, the files it is the mean of,
/// and for a grown network (`oxo grow`) the file it grew from with that file's provenance
/// and its `total_stage_seconds`, so a run warm-started from a grown net counts the training
/// that the small net cost.
fn file_provenance(model: &Path, depth: usize) -> Value {
    let mut provenance = json!({ "model_file": file_name(model), "average_of": average_of(model) });
    let grown_from = FileInfo::read(model).ok().and_then(|info| info.grown_from);
    if let Some(source) = grown_from.filter(|_| depth < MAX_GROWN_CHAIN) {
        let source = Path::new(&source);
        let earlier = provenance_at(source, depth + 1);
        provenance["total_stage_seconds"] = earlier["total_stage_seconds"].clone();
        provenance["total_cpu_seconds"] = json!(chain_cpu_seconds(&earlier));
        provenance["grown_from"] = json!({ "model": source, "provenance": earlier });
    }
    provenance
}

/// The last component of `model`'s path, as provenance names the model file.
fn file_name(model: &Path) -> Option<String> {
    model.file_name().map(|f| f.to_string_lossy().into_owned())
}

/// The files `model` is the mean of (`oxo average`), or null for a network as trained (or a
/// file that does not read: the export itself reports that).
fn average_of(model: &Path) -> Value {
    FileInfo::read(model)
        .ok()
        .filter(|info| !info.average_of.is_empty())
        .map_or(Value::Null, |info| json!(info.average_of))
}

/// A warm-started run's record of the model it started from: `{"model": path, "provenance":
/// ...}`, written when the run starts.
pub const WARM_START_FILE: &str = "warm_start.json";

/// The provenance recorded in the `model.json` beside `model`, when `model` is the
/// `model.bpk` of an exported directory.
fn exported_provenance(model: &Path) -> Option<Value> {
    let text = fs::read_to_string(model.with_file_name("model.json")).ok()?;
    Some(ModelJson::parse(&text).ok()?.provenance)
}

/// The run directory a model lies in (`RUN/models/FILE.bpk`, with `RUN/run.json`), if any.
fn run_of(model: &Path) -> Option<&Path> {
    model
        .parent()
        .and_then(Path::parent)
        .filter(|run| run.join("run.json").is_file())
}

/// The config of the run directory `run`, as its `config.toml` holds it, if it reads.
fn run_config(run: &Path) -> Option<RunConfig> {
    RunConfig::load(&run.join("config.toml")).ok()
}

/// `model.json`'s `play`: `search`, the search the model plays best with, and how it values
/// positions: `value` where given (a value measured to play better than the training one,
/// e.g. the win/draw/loss head mixed into a score utility), else the [`recorded_value`]
/// (how its run valued them), so that players use the net the way it was trained and gated.
/// An error for a model whose own `model.json` does not read.
pub fn play_settings<G: Encode>(
    model: &Path,
    search: &str,
    value: Option<NetValue>,
) -> Result<PlaySettings> {
    let value = match value {
        Some(value) => value,
        None => recorded_value::<G>(model)?,
    };
    Ok(PlaySettings::new(search, value))
}

/// The value the model file at `model` was trained and gated with: its run's (the
/// [`NetValue`] of its config: `selfplay.score_utility` and the random playouts) where it
/// lies in a run directory, else what its `model.json` records (an exported model), else
/// the net's value alone. An error for a `model.json` that does not read.
pub fn recorded_value<G: Encode>(model: &Path) -> Result<NetValue> {
    if let Some(config) = run_of(model).and_then(run_config) {
        return Ok(config.net_value());
    }
    let file = ModelFile::open::<G>(model).map_err(TrainError)?;
    match file.play() {
        Some(play) => play.value().map_err(TrainError),
        None => Ok(NetValue::PLAIN),
    }
}

/// The records of a `.jsonl` file (none if it is missing; unreadable lines are skipped).
fn read_jsonl(path: &Path) -> Vec<Value> {
    let text = fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect()
}

/// The wall-clock seconds a run took: the trainer's count in its newest record (roles at
/// once), or the stages' seconds summed (stages one after another, each on all the run's
/// cores): the training cost, times the cores the run had.
fn run_seconds(metrics: &[Value]) -> f64 {
    let counted = metrics
        .iter()
        .filter_map(|record| record["run_seconds"].as_f64())
        .reduce(f64::max);
    counted.unwrap_or_else(|| {
        metrics
            .iter()
            .filter_map(|record| record.get("seconds").and_then(Value::as_f64))
            .sum()
    })
}

/// The last Elo rating among a run's metrics records, if any.
fn last_rating(metrics: &[Value]) -> Value {
    metrics
        .iter()
        .rev()
        .find(|record| record.get("elo").is_some())
        .map(|record| {
            json!({
                "generation": record.get("candidate").or(record.get("generation")),
                "elo": record.get("elo"),
                "elo_low": record.get("elo_low"),
                "elo_high": record.get("elo_high"),
                "against": "the run's gate.rate_agents (the first is Elo 0)",
            })
        })
        .unwrap_or(Value::Null)
}

/// The exported directory's README: what each file is and how to run the model.
fn readme<G: Encode>(net: &Net) -> String {
    let outputs = net.onnx_outputs().join("`, `");
    format!(
        "# oxo model: {variant}\n\n\
         Exported by `oxo export` (oxo {version}).\n\n\
         | file | what |\n|---|---|\n\
         | `model.onnx` | the network, opset 18: input `{input}` `[batch, {planes}, {height}, {width}]` float32; outputs `{outputs}` |\n\
         | `model.safetensors` | the same weights with PyTorch-style names |\n\
         | `model.bpk` | the file oxo itself loads (`--agent net:path=model.bpk,sims=N`) |\n\
         | `model.json` | the contract: input planes in order, action index to move, outputs, provenance |\n\n\
         ## Run it\n\n\
         `python3 scripts/oxo_onnx.py DIR MOVE MOVE ...` (from the oxo repository; needs `numpy` and\n\
         `onnxruntime`) replays the moves, encodes the position as `model.json` describes, runs\n\
         `model.onnx` and prints the policy over the legal moves and the value, one JSON line:\n\
         the same line `oxo gtp`'s `nn_eval` prints for that position.\n\n\
         By hand, with onnxruntime:\n\n\
         ```python\n\
         import numpy as np, onnxruntime as ort\n\
         session = ort.InferenceSession(\"model.onnx\")\n\
         planes = np.zeros((1, {planes}, {height}, {width}), np.float32)  # fill as model.json says\n\
         policy_logits, wdl_logits = session.run([\"{policy}\", \"{wdl}\"], {{\"{input}\": planes}})\n\
         ```\n\n\
         Mask the illegal moves of `policy_logits` before the softmax. The win/draw/loss logits\n\
         are for the player to move. The network is what oxo searches with: on its own (no\n\
         search) it plays weaker than `oxo` with `sims=N`.\n",
        variant = G::NAME,
        version = env!("CARGO_PKG_VERSION"),
        input = INPUT_NAME,
        planes = G::PLANES,
        height = G::HEIGHT,
        width = G::WIDTH,
        policy = POLICY_OUTPUT,
        wdl = WDL_OUTPUT,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chain exported by an older oxo, whose records have no CPU seconds, is counted from
    /// each link's seconds and cores: a 2-core run, then a 1-core run from its model.
    #[test]
    fn the_cpu_seconds_of_an_older_chain_are_its_links_seconds_times_their_cores() {
        let first =
            json!({ "stage_seconds": 100.0, "run_info": { "cores": 2 }, "warm_start": null });
        let second = json!({
            "stage_seconds": 50.0,
            "run_info": { "cores": 1 },
            "warm_start": { "model": "first.bpk", "provenance": first },
        });
        assert_eq!(chain_cpu_seconds(&second), Some(250.0));
        let grown = json!({ "model_file": "grown.bpk", "grown_from": { "provenance": second } });
        assert_eq!(chain_cpu_seconds(&grown), Some(250.0));
        let outside_a_run = json!({ "model_file": "net.bpk", "average_of": null });
        assert_eq!(chain_cpu_seconds(&outside_a_run), None);
        assert_eq!(
            chain_cpu_seconds(&json!({ "total_cpu_seconds": 7.0 })),
            Some(7.0)
        );
    }
}
