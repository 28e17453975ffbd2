//! `oxo export`: one trained network as a directory that other programs can use without oxo:
//! `model.onnx` (dynamic batch axis, named input and outputs), `model.safetensors` (PyTorch
//! names), `model.bpk` (the file oxo loads), `model.json` (the contract: the exact input
//! encoding, the action-index mapping, the outputs and their meaning, how to play it,
//! provenance) and a
//! `README.md` on how to run it.

use std::fs;
use std::path::{Path, PathBuf};

use oxo_nn::{
    BATCH_AXIS, Device, Encode, FileInfo, INPUT_NAME, Net, POLICY_OUTPUT, SCORE_OUTPUT, WDL_OUTPUT,
};
use oxo_rules::Action;
use serde_json::{Value, json};

use crate::config::RunConfig;
use crate::rundir::{Result, io_error, write_atomic};
use crate::value::NetValue;

/// `model.json`'s `format` field.
pub const MODEL_FORMAT: &str = "oxo-model";
/// `model.json`'s `format_version`: bumped whenever a field changes meaning.
pub const MODEL_FORMAT_VERSION: u32 = 1;

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
    let mut description = describe::<G>(&net, &provenance(model));
    description["play"] = play_settings(model, search, value);
    let text = serde_json::to_string_pretty(&description).expect("JSON of plain values");
    write_atomic(&paths[3], text.as_bytes())?;
    write_atomic(&paths[4], readme::<G>(&net).as_bytes())?;
    Ok(paths)
}

/// `model.json`: everything a front end needs to feed the network and read its answer.
pub fn describe<G: Encode>(net: &Net, provenance: &Value) -> Value {
    let config = net.config();
    let planes: Vec<Value> = G::plane_names()
        .iter()
        .enumerate()
        .map(|(index, text)| json!({ "index": index, "description": text }))
        .collect();
    let moves: Vec<String> = (0..G::NUM_ACTIONS as Action)
        .map(G::format_action)
        .collect();
    let mut outputs = vec![
        json!({
            "name": POLICY_OUTPUT,
            "shape": [BATCH_AXIS, G::NUM_ACTIONS],
            "meaning": "unnormalised log-probabilities of every action index (actions.moves); \
                        set illegal moves to -inf, then softmax"
        }),
        json!({
            "name": WDL_OUTPUT,
            "shape": [BATCH_AXIS, 3],
            "meaning": "win, draw and loss logits for the player to move; after a softmax, \
                        value = p(win) - p(loss), in [-1, 1]"
        }),
    ];
    if config.score_head {
        let mut score = json!({
            "name": SCORE_OUTPUT,
            "shape": [BATCH_AXIS, 1],
            "meaning": "predicted final score margin, player to move minus opponent, divided \
                        by the run's train.score_scale (`scale`, where known: the output times \
                        it is the margin in points) and clipped to [-1, 1] in training; \
                        where the run sets train.outright_win_score, a game won by an event \
                        the scores do not count (a big-board pattern, a line) trained toward \
                        plus or minus that value instead"
        });
        if let Some(scale) = provenance["score_scale"].as_f64() {
            score["scale"] = scale.into();
        }
        outputs.push(score);
    }
    json!({
        "format": MODEL_FORMAT,
        "format_version": MODEL_FORMAT_VERSION,
        "variant": G::NAME,
        "rules": {
            "version": oxo_rules::RULES_VERSION,
            "text": "docs/RULES.md of the oxo repository"
        },
        "oxo_version": env!("CARGO_PKG_VERSION"),
        "network": {
            "kind": "residual convolutional network (AlphaZero style)",
            "blocks": config.blocks,
            "channels": config.channels,
            "patch": config.patch,
            "patch_note": "side of the stem's square patches: 1, a vector per cell; p > 1, a \
                           convolution with kernel and stride p makes one per p x p block, the \
                           trunk runs on the block grid and each block's vector gives its own \
                           cells' policy logits",
            "policy_channels": config.policy_channels,
            "value_channels": config.value_channels,
            "value_hidden": config.value_hidden,
            "score_head": config.score_head,
            "ownership_head": config.ownership_head,
            "ownership_note": "a training-only head (each cell's final owner, or in a run \
                               with train.cell_target \"points\" the score margin still to \
                               be made there); not an ONNX output, its weights are in the \
                               safetensors file",
        },
        "input": {
            "name": INPUT_NAME,
            "dtype": "float32",
            "shape": [BATCH_AXIS, G::PLANES, G::HEIGHT, G::WIDTH],
            "layout": "plane-major: element (plane, row, column); cell (row, column) is cell \
                       index row * width + column (docs/RULES.md), the action index of a move \
                       on it",
            "point_of_view": "the player to move: 'mover' planes hold the marks of the player \
                              whose turn it is, 'opponent' planes the other's; no history",
            "planes": planes,
        },
        "actions": {
            "count": G::NUM_ACTIONS,
            "moves": moves,
            "note": "moves[i] is action index i in oxo's notation (as `oxo gtp` prints and \
                     accepts it); not every index is legal in every position",
        },
        "outputs": outputs,
        "provenance": provenance,
    })
}

/// What is known of how the model was made: when it lies in a run directory
/// (`RUN/models/FILE.bpk`), the run's seed, versions, commit, its state and last rating, and
/// for a warm-started run (`oxo train --init`) the provenance of the model it started from
/// (`warm_start`) and the stage seconds of the whole chain (`total_stage_seconds`); in an
/// exported directory, the provenance its `model.json` records.
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
    let state = read("state.json");
    let metrics = read_jsonl(&run.join("metrics.jsonl"));
    let warm_start = read(WARM_START_FILE);
    let seconds = stage_seconds(&metrics);
    let earlier_seconds = warm_start["provenance"]["total_stage_seconds"]
        .as_f64()
        .or_else(|| warm_start["provenance"]["stage_seconds"].as_f64())
        .unwrap_or(0.0);
    json!({
        "model_file": file_name(model),
        "average_of": average_of(model),
        "run": run.display().to_string(),
        "run_info": read("run.json"),
        "best_generation": state.get("best"),
        "generations_trained": state.get("generation").and_then(Value::as_u64).map(|g| g.saturating_sub(1)),
        "train_steps": state.get("train_steps"),
        "self_play_games": state.get("total_games"),
        "last_rating": last_rating(&metrics),
        "score_scale": run_config(run).map(|c| c.train.score_scale),
        "stage_seconds": seconds,
        "warm_start": warm_start,
        "total_stage_seconds": seconds + earlier_seconds,
    })
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
    model_json_field(&model.with_file_name("model.json"), "provenance")
}

/// Field `name` of the `model.json` at `model_json`, if the file reads and has it.
fn model_json_field(model_json: &Path, name: &str) -> Option<Value> {
    let text = fs::read_to_string(model_json).ok()?;
    let description: Value = serde_json::from_str(&text).ok()?;
    description.get(name).cloned()
}

/// Writes `RUN/warm_start.json` for a run that starts from the weights of `model`.
pub fn record_warm_start(run: &Path, model: &Path) -> Result<()> {
    let record = json!({
        "model": model.display().to_string(),
        "provenance": provenance(model),
    });
    let bytes = serde_json::to_vec_pretty(&record).expect("JSON values serialise");
    write_atomic(&run.join(WARM_START_FILE), &bytes)
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
pub fn play_settings(model: &Path, search: &str, value: Option<NetValue>) -> Value {
    let value = value.unwrap_or_else(|| recorded_value(model));
    json!({
        "search": search,
        "search_meaning": "the search this model plays best with, as oxo's net agent spells \
                           it (net:PARAMS): search=puct|gumbel, sims=N simulations or ms=M \
                           milliseconds a move; `oxo play` and `oxo gtp` play it by default",
        "score_utility": value.score_utility,
        "rollouts": value.rollouts.playouts,
        "rollout_weight": value.rollouts.weight,
        "rollout_policy": value.rollouts.policy.name(),
        "meaning": "mix the mean outcome of `rollouts` playouts from each evaluated position \
                    into the net's value with weight `rollout_weight` (oxo: \
                    net:rollouts=R,mix=W,playout=P); 0 rollouts: the net's value alone. \
                    `rollout_policy` uniform: uniformly random moves; tactical: a move that \
                    wins a small board at once when there is one, else a random one; \
                    `score_utility`: the score head's share of the net's value, the \
                    win/draw/loss head's being 1 - score_utility (oxo: net:score=W)",
    })
}

/// The ONNX graph the `model.json` beside `model` records for onnxruntime to play the net
/// with (`play.onnx`: a file name in the model's directory, such as the net's int8
/// quantization by `scripts/quantize_int8.py`, which searches about twice the simulations in
/// the same time), read and checked against the CRC-32 the record gives
/// (`play.onnx_crc32`, 8 hex digits). `Ok(None)` where nothing is recorded; an error naming
/// the file where the record is malformed, the file is missing, or its bytes are not the
/// recorded ones (a recorded graph is never silently replaced by the net's own export).
pub fn recorded_graph(model: &Path) -> std::result::Result<Option<(PathBuf, Vec<u8>)>, String> {
    let model_json = model.with_file_name("model.json");
    let Some(play) = model_json_field(&model_json, "play") else {
        return Ok(None);
    };
    let Some(name) = play.get(PLAY_GRAPH) else {
        return Ok(None);
    };
    let where_ = model_json.display();
    let name = name
        .as_str()
        .filter(|name| Path::new(name).file_name() == Some(std::ffi::OsStr::new(name)))
        .ok_or_else(|| format!("{where_}: play.{PLAY_GRAPH} must be a file name beside it"))?;
    let expected = play
        .get(PLAY_GRAPH_CRC32)
        .and_then(Value::as_str)
        .and_then(|hex| u32::from_str_radix(hex, 16).ok())
        .ok_or_else(|| format!("{where_}: play.{PLAY_GRAPH_CRC32} must be 8 hex digits"))?;
    let path = model.with_file_name(name);
    let bytes = oxo_nn::read_bounded(&path, MAX_GRAPH_BYTES)
        .map_err(|e| format!("{} (recorded in {where_}): {e}", path.display()))?;
    let found = crc32fast::hash(&bytes);
    if found != expected {
        return Err(format!(
            "{}: CRC-32 {found:08x}, but {where_} records {expected:08x}: the file is damaged \
             or not the recorded graph",
            path.display()
        ));
    }
    Ok(Some((path, bytes)))
}

/// `model.json`'s `play` field naming the ONNX graph onnxruntime plays the net with.
const PLAY_GRAPH: &str = "onnx";
/// `model.json`'s `play` field holding that graph's CRC-32.
const PLAY_GRAPH_CRC32: &str = "onnx_crc32";
/// The largest recorded graph read: far above any oxo net (a few MB), far below what would
/// exhaust memory.
pub const MAX_GRAPH_BYTES: u64 = 512 << 20;

/// The value the model file at `model` plays with unless told otherwise: its run's (the
/// [`NetValue`] of its config: `selfplay.score_utility` and the random playouts) where it
/// lies in a run directory, else what the `model.json` beside it records (an exported
/// model), else the net's value alone.
pub fn recorded_value(model: &Path) -> NetValue {
    run_of(model).and_then(run_config).map_or_else(
        || model_net_value(&model.with_file_name("model.json")),
        |config| config.net_value(),
    )
}

/// The search a `model.json` records (`play.search`), or
/// [`LEGACY_PLAY_SEARCH`](crate::play_search::LEGACY_PLAY_SEARCH) where the file or the
/// field is missing or invalid.
pub fn model_play_search(model_json: &Path) -> String {
    oxo_play::play_search::recorded_search(model_json_field(model_json, "play").as_ref())
}

/// The search the model file at `model` plays with unless told otherwise: what the
/// `model.json` beside it records ([`model_play_search`]); `None` for a model without one
/// (a run's own models), whose spec alone says how it searches.
pub fn recorded_search(model: &Path) -> Option<String> {
    let model_json = model.with_file_name("model.json");
    model_json.is_file().then(|| model_play_search(&model_json))
}

/// The [`NetValue`] a `model.json` asks for (its `play` field); the net's value alone where
/// the file or the field is missing, and for each setting missing from the field.
pub fn model_net_value(model_json: &Path) -> NetValue {
    NetValue::recorded(model_json_field(model_json, "play").as_ref())
}

/// The records of a `.jsonl` file (none if it is missing; unreadable lines are skipped).
fn read_jsonl(path: &Path) -> Vec<Value> {
    let text = fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect()
}

/// Wall-clock seconds the run's stages took (self-play, training, gating, rating), summed
/// over its metrics records: the training cost, on however many threads the run had.
fn stage_seconds(metrics: &[Value]) -> f64 {
    metrics
        .iter()
        .filter_map(|record| record.get("seconds").and_then(Value::as_f64))
        .sum()
}

/// The last Elo rating among a run's metrics records, if any.
fn last_rating(metrics: &[Value]) -> Value {
    metrics
        .iter()
        .rev()
        .find(|record| record.get("elo").is_some())
        .map(|record| {
            json!({
                "generation": record.get("generation"),
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
