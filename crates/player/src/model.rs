//! The model files a net agent plays: a `.bpk` and the `model.json` of its directory, which
//! says how the nets in it play ([`ModelFile`]); the model shipped for each variant
//! ([`shipped_model`]); the ONNX graph a `model.json` records for onnxruntime
//! ([`ModelFile::recorded_graph`]).

use std::path::{Path, PathBuf};

use oxo_agents::AgentSpec;
use oxo_engine::{Engine, EngineKind, EngineModel};
use oxo_nn::{Device, Encode, FileInfo, Net, NetConfig};
use oxo_play::{ModelJson, NET_KIND, PlaySettings};

/// The largest recorded graph read: far above any oxo net (a few MB), far below what would
/// exhaust memory.
pub const MAX_GRAPH_BYTES: u64 = 512 << 20;

/// The largest `model.json` read (the shipped ones are a few KB).
const MAX_MODEL_JSON_BYTES: u64 = 16 << 20;

/// A model file (model or checkpoint) and the description of its directory.
#[derive(Clone, Debug)]
pub struct ModelFile {
    /// The `.bpk` file.
    pub path: PathBuf,
    /// The `model.json` beside it, checked against the file's header (variant, shapes,
    /// network); `None` for a bare file, which says nothing of how it plays.
    pub description: Option<ModelJson>,
}

impl ModelFile {
    /// The model file at `path`, a net of variant `G`, with the `model.json` beside it if
    /// there is one. An error in words naming the file: a file that is no oxo model of `G`,
    /// or a `model.json` that does not read, does not parse, or disagrees with the file
    /// (another variant, another network). A `model.json` is never skipped: once there, it
    /// is part of the model.
    pub fn open<G: Encode>(path: &Path) -> Result<ModelFile, String> {
        let info = FileInfo::read(path).map_err(|e| e.to_string())?;
        let json = model_json_path(path);
        let description = match std::fs::symlink_metadata(&json) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            _ => Some(read_description::<G>(&json, &info.config)?),
        };
        Ok(ModelFile {
            path: path.to_path_buf(),
            description,
        })
    }

    /// The net itself (not a recorded graph) on a one-thread engine of `kind`: what `nn_eval`
    /// reports, the outputs `model.onnx` gives other programs. An error in words for a file
    /// that does not load as a `G` net.
    pub fn net_engine<G: Encode>(&self, kind: EngineKind) -> Result<Engine, String> {
        let net = Net::load::<G>(&self.path, &Device::flex()).map_err(|e| e.to_string())?;
        Ok(EngineModel::new(&net, kind).open(1))
    }

    /// The play settings the model's `model.json` records, if it has one.
    pub fn play(&self) -> Option<&PlaySettings> {
        self.description.as_ref().map(|d| &d.play)
    }

    /// The ONNX graph the model's `model.json` records for onnxruntime to play the net with
    /// (`play.onnx`: a file name beside it, such as the net's int8 quantization by
    /// `scripts/quantize_int8.py`, which searches about twice the simulations in the same
    /// time), read and checked against the recorded CRC-32 (`play.onnx_crc32`). `Ok(None)`
    /// where nothing is recorded; an error naming the file where it is missing or its bytes
    /// are not the recorded ones (a recorded graph is never silently replaced by the net's
    /// own export).
    pub fn recorded_graph(&self) -> Result<Option<(PathBuf, Vec<u8>)>, String> {
        let Some(play) = self.play() else {
            return Ok(None);
        };
        let (Some(name), Some(expected)) = (&play.onnx, play.graph_crc32()?) else {
            return Ok(None);
        };
        let json = model_json_path(&self.path);
        let path = json.with_file_name(name);
        let bytes = oxo_nn::read_bounded(&path, MAX_GRAPH_BYTES)
            .map_err(|e| format!("{} (recorded in {}): {e}", path.display(), json.display()))?;
        let found = crc32fast::hash(&bytes);
        if found != expected {
            return Err(format!(
                "{}: CRC-32 {found:08x}, but {} records {expected:08x}: the file is damaged \
                 or not the recorded graph",
                path.display(),
                json.display()
            ));
        }
        Ok(Some((path, bytes)))
    }
}

/// The `model.json` of the directory holding the model file `model`.
pub fn model_json_path(model: &Path) -> PathBuf {
    model.with_file_name("model.json")
}

/// The `model.json` at `json`, read and checked against a `G` net of size `config`; an
/// error naming the file and what is wrong.
fn read_description<G: Encode>(json: &Path, config: &NetConfig) -> Result<ModelJson, String> {
    let refuse = |e: String| format!("{}: {e}", json.display());
    let bytes =
        oxo_nn::read_bounded(json, MAX_MODEL_JSON_BYTES).map_err(|e| refuse(e.to_string()))?;
    let text = String::from_utf8(bytes).map_err(|e| refuse(e.to_string()))?;
    let description = ModelJson::parse(&text).map_err(refuse)?;
    description
        .check_game(G::NAME, G::NUM_ACTIONS, [G::PLANES, G::HEIGHT, G::WIDTH])
        .map_err(refuse)?;
    check_network(&description, config).map_err(refuse)?;
    Ok(description)
}

/// Checks that `description`'s network is the one `config` (the model file's header) says;
/// an error naming the first field that differs.
fn check_network(description: &ModelJson, config: &NetConfig) -> Result<(), String> {
    let network = &description.network;
    let fields = [
        ("blocks", network.blocks, config.blocks),
        ("channels", network.channels, config.channels),
        ("patch", network.patch, config.patch),
        (
            "policy_channels",
            network.policy_channels,
            config.policy_channels,
        ),
        (
            "value_channels",
            network.value_channels,
            config.value_channels,
        ),
        ("value_hidden", network.value_hidden, config.value_hidden),
        (
            "score_head",
            network.score_head.into(),
            config.score_head.into(),
        ),
        (
            "ownership_head",
            network.ownership_head.into(),
            config.ownership_head.into(),
        ),
    ];
    match fields
        .iter()
        .find(|(_, described, actual)| described != actual)
    {
        Some((name, described, actual)) => Err(format!(
            "network.{name} is {described}, but the model file's net has {actual}: this \
             model.json describes another net"
        )),
        None => Ok(()),
    }
}

/// The model shipped for `variant` (`models/VARIANT/model.bpk`), looked up under the current
/// directory and then in the repository this binary was built from; `None` when there is
/// none.
pub fn shipped_model(variant: &str) -> Option<PathBuf> {
    let relative = Path::new("models").join(variant).join("model.bpk");
    let repository = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    [relative.clone(), repository.join(relative)]
        .into_iter()
        .find(|path| path.is_file())
}

/// The spec of the shipped model of `variant` as its `model.json` says to play it (its
/// `play`: search and value, e.g. `net:search=puct,ms=400,rollouts=16,mix=0.5`); plain
/// `net` where that file does not read (building the agent then says why). `None` when no
/// model ships for `variant`.
pub fn shipped_agent(variant: &str) -> Option<String> {
    let model = shipped_model(variant)?;
    let text = std::fs::read_to_string(model_json_path(&model)).ok();
    let play = text
        .and_then(|text| ModelJson::parse(&text).ok())
        .map(|d| d.play);
    Some(
        match play.and_then(|play| Some((play.value().ok()?, play.search))) {
            Some((value, search)) => format!("{NET_KIND}:{search}{}", value.spec_params()),
            None => NET_KIND.to_string(),
        },
    )
}

/// The model file a `net` spec plays `variant` with: its `path`, or else the shipped model.
/// `None` for other agents, and for a `net` spec without `path` where no model ships.
pub fn spec_model(spec: &AgentSpec, variant: &str) -> Option<PathBuf> {
    if spec.kind != NET_KIND {
        return None;
    }
    match spec.params.get("path") {
        Some(path) => Some(PathBuf::from(path)),
        None => shipped_model(variant),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use oxo_rules::Game;
    use oxo_variants::tictactoe::TicTacToe;
    use oxo_variants::ultimate::Ultimate;

    /// Every shipped model's `model.json` reads, agrees with its net, and its recorded
    /// graph, where it records one, is there and intact.
    #[test]
    fn shipped_models_are_whole() {
        for variant in oxo_variants::Variant::ALL {
            oxo_variants::with_variant!(variant, G => {
                if let Some(path) = shipped_model(G::NAME) {
                    let model = ModelFile::open::<G>(&path).unwrap_or_else(|e| panic!("{e}"));
                    assert!(model.description.is_some(), "{}", G::NAME);
                    model.recorded_graph().unwrap_or_else(|e| panic!("{}: {e}", G::NAME));
                }
            });
        }
    }

    /// A copy of the shipped ultimate model in a new directory, its `model.json` changed by
    /// `edit` (removed where `edit` returns `None`).
    pub(crate) fn edited_copy(
        edit: impl FnOnce(serde_json::Value) -> Option<String>,
    ) -> tempfile::TempDir {
        let shipped = shipped_model("ultimate").expect("ultimate ships a model");
        let dir = tempfile::tempdir().unwrap();
        std::fs::copy(&shipped, dir.path().join("model.bpk")).unwrap();
        let text = std::fs::read_to_string(model_json_path(&shipped)).unwrap();
        if let Some(text) = edit(serde_json::from_str(&text).unwrap()) {
            std::fs::write(dir.path().join("model.json"), text).unwrap();
        }
        dir
    }

    /// A `model.json` that is garbage, of another format version, of another variant or
    /// describes another net is refused by the file's name and what is wrong.
    #[test]
    fn a_broken_or_foreign_model_json_is_refused_by_name() {
        type Edit = fn(serde_json::Value) -> Option<String>;
        let cases: [(Edit, &str); 6] = [
            (|_| Some("garbage".into()), "expected value"),
            (|_| Some(String::new()), "EOF"),
            (
                |mut d| {
                    d["format_version"] = 2.into();
                    Some(d.to_string())
                },
                "format_version 2",
            ),
            (
                |mut d| {
                    d["network"]["channels"] = 32.into();
                    Some(d.to_string())
                },
                "network.channels is 32, but the model file's net has 64",
            ),
            (
                |mut d| {
                    d["play"]["rollout_weight"] = 7.into();
                    Some(d.to_string())
                },
                "mix must lie in 0..=1",
            ),
            (
                |mut d| {
                    d["play"].as_object_mut().unwrap().remove("search");
                    Some(d.to_string())
                },
                "missing field `search`",
            ),
        ];
        for (edit, says) in cases {
            let dir = edited_copy(edit);
            let err = ModelFile::open::<Ultimate>(&dir.path().join("model.bpk")).expect_err(says);
            assert!(
                err.contains("model.json") && err.contains(says),
                "{says}: {err}"
            );
        }
        let dir = edited_copy(|d| Some(d.to_string()));
        let err =
            ModelFile::open::<TicTacToe>(&dir.path().join("model.bpk")).expect_err("ultimate");
        assert!(err.contains("ultimate"), "{err}");
    }

    /// Without a `model.json` a file is bare: it opens, and says nothing of how it plays.
    #[test]
    fn a_file_without_model_json_is_bare() {
        let dir = edited_copy(|_| None);
        let model = ModelFile::open::<Ultimate>(&dir.path().join("model.bpk")).unwrap();
        assert!(model.description.is_none() && model.play().is_none());
        assert_eq!(model.recorded_graph().unwrap(), None);
    }
}
