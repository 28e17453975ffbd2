//! [`ModelJson`]: the `model.json` of an exported model, the contract other programs follow
//! (the input encoding, the action-index mapping, the outputs and their meaning) and the
//! settings oxo plays the net with ([`PlaySettings`]). `oxo export` writes this struct; the
//! net agent, the WebAssembly front end and the tests read it, so a field is spelled once.

use oxo_agents::AgentSpec;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::play_search::{PlaySearch, check_search_params};
use crate::value::NetValue;

/// `model.json`'s `format` field.
pub const MODEL_FORMAT: &str = "oxo-model";
/// `model.json`'s `format_version`: bumped whenever a field changes meaning.
pub const MODEL_FORMAT_VERSION: u32 = 1;

/// An exported model's `model.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelJson {
    /// Always [`MODEL_FORMAT`].
    pub format: String,
    /// [`MODEL_FORMAT_VERSION`] of the oxo that wrote it.
    pub format_version: u32,
    /// The variant's name (`ultimate`).
    pub variant: String,
    /// The rules the net was trained under.
    pub rules: RulesRef,
    /// The oxo version that exported it.
    pub oxo_version: String,
    /// The network's shape.
    pub network: NetworkDescription,
    /// The network's input tensor.
    pub input: InputDescription,
    /// Action index to move.
    pub actions: ActionsDescription,
    /// The network's outputs, in order.
    pub outputs: Vec<OutputDescription>,
    /// How oxo plays the net.
    pub play: PlaySettings,
    /// What is known of how the model was made (run, seed, versions, commit, cost): open
    /// ended, as much as the exporting oxo could find.
    pub provenance: Value,
}

/// Which rules a model plays.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RulesRef {
    /// `oxo_rules::RULES_VERSION` at export.
    pub version: String,
    /// Where the rules are written down.
    pub text: String,
}

/// The network's shape, as `oxo_nn::NetConfig` holds it, with notes for readers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NetworkDescription {
    /// What kind of network it is, in words.
    pub kind: String,
    /// Residual blocks in the trunk.
    pub blocks: usize,
    /// Channels of every trunk convolution.
    pub channels: usize,
    /// Side of the stem's square patches.
    pub patch: usize,
    /// What `patch` means.
    pub patch_note: String,
    /// Channels of the policy head's 1x1 convolution.
    pub policy_channels: usize,
    /// Channels of the value head's 1x1 convolution.
    pub value_channels: usize,
    /// Width of the value head's hidden layer.
    pub value_hidden: usize,
    /// Whether the net predicts the score margin (an output).
    pub score_head: bool,
    /// Whether the net has the training-only ownership head.
    pub ownership_head: bool,
    /// What the ownership head is.
    pub ownership_note: String,
}

/// One dimension of a tensor shape: a size, or the name of a dynamic axis (`batch`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Dim {
    /// A fixed size.
    Size(usize),
    /// A dynamic axis, by name.
    Axis(String),
}

/// The network's input tensor.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InputDescription {
    /// The ONNX input's name.
    pub name: String,
    /// Its element type (`float32`).
    pub dtype: String,
    /// `[batch, planes, height, width]`.
    pub shape: Vec<Dim>,
    /// How elements are laid out.
    pub layout: String,
    /// Whose point of view the planes take.
    pub point_of_view: String,
    /// Each plane, in order.
    pub planes: Vec<PlaneDescription>,
}

/// One input plane.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlaneDescription {
    /// Its index in the input.
    pub index: usize,
    /// What it holds.
    pub description: String,
}

/// The action indices.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ActionsDescription {
    /// How many there are (the policy's length).
    pub count: usize,
    /// `moves[i]`: action index `i` in oxo's notation.
    pub moves: Vec<String>,
    /// A note for readers.
    pub note: String,
}

/// One network output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OutputDescription {
    /// The ONNX output's name.
    pub name: String,
    /// Its shape.
    pub shape: Vec<Dim>,
    /// What the numbers mean.
    pub meaning: String,
    /// For the score output: the points one unit of it stands for, where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale: Option<f64>,
}

/// `model.json`'s `play`: the search and value oxo plays the net with (`oxo play` and
/// `oxo gtp` by default, `net:` specs for each parameter they leave out, the web page), and
/// optionally another ONNX graph of the same net for onnxruntime (its int8 quantization).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlaySettings {
    /// The search, as a `net:` spec's search parameters (`search=puct,ms=400`).
    pub search: String,
    /// What `search` means (for readers; may be left out).
    #[serde(default)]
    pub search_meaning: String,
    /// The score head's share of the value.
    pub score_utility: f32,
    /// Random playouts mixed into each value (0: none).
    pub rollouts: u32,
    /// Their weight in the value.
    pub rollout_weight: f32,
    /// How they pick moves (`uniform` or `tactical`).
    pub rollout_policy: String,
    /// What a draw is worth to the player searching ([`NetValue::draw`]); 0 where left out.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub draw_value: f32,
    /// What the value settings mean (for readers; may be left out).
    #[serde(default)]
    pub meaning: String,
    /// An ONNX file beside `model.json` that onnxruntime plays the net with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub onnx: Option<String>,
    /// That file's CRC-32, 8 hex digits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub onnx_crc32: Option<String>,
    /// What the recorded graph is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub onnx_meaning: Option<String>,
}

/// Whether a value is 0: `draw_value` is written only where it is not.
fn is_zero(value: &f32) -> bool {
    *value == 0.0
}

/// `search_meaning`, as export writes it.
pub const SEARCH_MEANING: &str = "the search this model plays best with, as oxo's net agent \
    spells it (net:PARAMS): search=puct|gumbel, sims=N simulations or ms=M milliseconds a \
    move, solve=1 proves won, lost and drawn positions in the tree and plays by the proof; \
    `oxo play` and `oxo gtp` play it by default";

/// `meaning` of the value settings, as export writes it.
pub const VALUE_MEANING: &str = "mix the mean outcome of `rollouts` playouts from each \
    evaluated position into the net's value with weight `rollout_weight` (oxo: \
    net:rollouts=R,mix=W,playout=P); 0 rollouts: the net's value alone. `rollout_policy` \
    uniform: uniformly random moves; tactical: a move that wins a small board at once when \
    there is one, else a random one; `score_utility`: the score head's share of the net's \
    value, the win/draw/loss head's being 1 - score_utility (oxo: net:score=W); \
    `draw_value`, where present: what a draw is worth to the player searching, -1 to 1, its \
    opponent's the negation, in the net's value P(win) - P(loss) + draw_value * P(draw), the \
    playouts and finished positions (oxo: net:draw=D; 0 where absent)";

impl PlaySettings {
    /// The settings for playing with `search` (a `net:` spec's search parameters) and
    /// `value`, no other graph recorded.
    pub fn new(search: &str, value: NetValue) -> PlaySettings {
        PlaySettings {
            search: search.to_string(),
            search_meaning: SEARCH_MEANING.to_string(),
            score_utility: value.score_utility,
            rollouts: value.rollouts.playouts,
            rollout_weight: value.rollouts.weight,
            rollout_policy: value.rollouts.policy.name().to_string(),
            draw_value: value.draw,
            meaning: VALUE_MEANING.to_string(),
            onnx: None,
            onnx_crc32: None,
            onnx_meaning: None,
        }
    }

    /// The settings from a `play` object as JSON text (what the web page hands over); an
    /// error in words naming what is wrong.
    pub fn from_json(text: &str) -> Result<PlaySettings, String> {
        let settings: PlaySettings =
            serde_json::from_str(text).map_err(|e| format!("play settings: {e}"))?;
        settings.check()?;
        Ok(settings)
    }

    /// The search, checked as a spec's search parameters are.
    pub fn search(&self) -> Result<PlaySearch, String> {
        check_search_params(&self.search).map_err(|e| format!("play.search: {e}"))
    }

    /// The value, checked as a spec's value parameters are (ranges, the playout policy).
    pub fn value(&self) -> Result<NetValue, String> {
        let rollouts = if self.rollouts > 0 {
            format!(
                ",rollouts={},mix={},playout={}",
                self.rollouts, self.rollout_weight, self.rollout_policy
            )
        } else {
            String::new()
        };
        let text = format!(
            "net:score={}{rollouts},draw={}",
            self.score_utility, self.draw_value
        );
        let spec: AgentSpec = text.parse().map_err(|e| format!("play: {e}"))?;
        NetValue::from_spec(&spec).map_err(|e| format!("play: {e}"))
    }

    /// The CRC-32 `onnx_crc32` records: exactly 8 hex digits, else an error in words;
    /// `None` where no graph is recorded.
    pub fn graph_crc32(&self) -> Result<Option<u32>, String> {
        let Some(hex) = &self.onnx_crc32 else {
            return match &self.onnx {
                Some(_) => Err(
                    "play.onnx_crc32 is missing: a recorded graph needs its CRC-32 \
                                (8 hex digits)"
                        .to_string(),
                ),
                None => Ok(None),
            };
        };
        let digits = hex.len() == 8 && hex.bytes().all(|b| b.is_ascii_hexdigit());
        match u32::from_str_radix(hex, 16) {
            Ok(crc) if digits => Ok(Some(crc)),
            _ => Err(format!("play.onnx_crc32 '{hex}' must be 8 hex digits")),
        }
    }

    /// Every setting checked: the search, the value, the recorded graph's name (a file name,
    /// no path) and CRC-32.
    pub fn check(&self) -> Result<(), String> {
        self.search()?;
        self.value()?;
        self.graph_crc32()?;
        if let Some(name) = &self.onnx {
            let bare = std::path::Path::new(name).file_name() == Some(std::ffi::OsStr::new(name));
            if !bare {
                return Err(format!(
                    "play.onnx '{name}' must be a file name beside model.json"
                ));
            }
            if self.onnx_crc32.is_none() {
                return Err("play.onnx_crc32 is missing".to_string());
            }
        }
        Ok(())
    }
}

impl ModelJson {
    /// A `model.json` read from its text and checked in itself (format, version, play
    /// settings); an error in words, without the file's name (the caller adds it).
    pub fn parse(text: &str) -> Result<ModelJson, String> {
        let model: ModelJson = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if model.format != MODEL_FORMAT {
            return Err(format!(
                "format is '{}', not '{MODEL_FORMAT}'",
                model.format
            ));
        }
        if model.format_version != MODEL_FORMAT_VERSION {
            return Err(format!(
                "format_version {} is not {MODEL_FORMAT_VERSION}, the one this oxo reads",
                model.format_version
            ));
        }
        model.play.check()?;
        Ok(model)
    }

    /// Checks that this describes a net of `variant` with `actions` action indices and
    /// `planes` input planes of `height` by `width`: an error naming the first field that
    /// disagrees.
    pub fn check_game(
        &self,
        variant: &str,
        actions: usize,
        [planes, height, width]: [usize; 3],
    ) -> Result<(), String> {
        let shape = [
            Dim::Axis("batch".into()),
            Dim::Size(planes),
            Dim::Size(height),
            Dim::Size(width),
        ];
        if self.variant != variant {
            Err(format!("variant is {}, not {variant}", self.variant))
        } else if self.actions.count != actions || self.actions.moves.len() != actions {
            Err(format!(
                "actions.count is {}, but {variant} has {actions}",
                self.actions.count
            ))
        } else if self.input.shape != shape {
            Err(format!(
                "input.shape is {:?}, not {variant}'s {shape:?}",
                self.input.shape
            ))
        } else {
            Ok(())
        }
    }

    /// The text export writes: pretty JSON.
    pub fn to_text(&self) -> String {
        serde_json::to_string_pretty(self).expect("a model.json serialises")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> PlaySettings {
        PlaySettings::new("search=puct,ms=400", NetValue::PLAIN)
    }

    /// What export writes, the web page and the agent read back the same.
    #[test]
    fn play_settings_round_trip() {
        let text = serde_json::to_string(&settings()).unwrap();
        assert_eq!(PlaySettings::from_json(&text).unwrap(), settings());
        assert_eq!(settings().value().unwrap(), NetValue::PLAIN);
    }

    /// A CRC-32 is 8 hex digits, not a number that happens to parse.
    #[test]
    fn a_short_crc32_is_refused() {
        for (crc, ok) in [
            ("0000abcd", true),
            ("abc", false),
            ("+0000abc", false),
            ("xyz", false),
        ] {
            let play = PlaySettings {
                onnx: Some("model-int8.onnx".into()),
                onnx_crc32: Some(crc.into()),
                ..settings()
            };
            assert_eq!(play.check().is_ok(), ok, "{crc}: {:?}", play.check());
        }
    }

    /// Out-of-range values and unknown searches are refused by the spec's own checks.
    #[test]
    fn bad_play_settings_are_refused_in_words() {
        let cases = [
            (
                PlaySettings {
                    rollout_weight: 2.0,
                    rollouts: 4,
                    ..settings()
                },
                "mix",
            ),
            (
                PlaySettings {
                    search: "search=minimax".into(),
                    ..settings()
                },
                "play.search",
            ),
            (
                PlaySettings {
                    rollout_policy: "smart".into(),
                    rollouts: 4,
                    ..settings()
                },
                "smart",
            ),
            (
                PlaySettings {
                    onnx: Some("../x.onnx".into()),
                    onnx_crc32: Some("00000000".into()),
                    ..settings()
                },
                "file name",
            ),
            (
                PlaySettings {
                    onnx: Some("x.onnx".into()),
                    ..settings()
                },
                "onnx_crc32",
            ),
        ];
        for (play, says) in cases {
            let err = play.check().expect_err(says);
            assert!(err.contains(says), "{says}: {err}");
        }
    }
}
