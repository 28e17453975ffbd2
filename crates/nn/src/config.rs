//! The network's size and the training hyper-parameters, as serde structs so a run's
//! configuration file and a saved model both carry them.

use serde::{Deserialize, Serialize};

/// The most residual blocks a trunk may have: a run config's `net.blocks` and `oxo grow
/// --blocks` both refuse more.
pub const MAX_BLOCKS: usize = 64;

/// The shape of the residual network: the trunk's depth and width and the heads' sizes.
///
/// The input and output shapes come from the variant ([`crate::NetShape`]), so one config
/// serves every variant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetConfig {
    /// Residual blocks in the trunk (each two 3x3 convolutions with batch norm).
    pub blocks: usize,
    /// Channels of every trunk convolution.
    pub channels: usize,
    /// Channels of the policy head's 1x1 convolution before its linear layer.
    #[serde(default = "default_head_channels")]
    pub policy_channels: usize,
    /// Channels of the value head's 1x1 convolution before its hidden layer.
    #[serde(default = "default_head_channels")]
    pub value_channels: usize,
    /// Width of the value head's hidden layer, shared by the win/draw/loss and score outputs.
    #[serde(default = "default_value_hidden")]
    pub value_hidden: usize,
    /// Whether the net also predicts the final score margin (for scoring variants).
    #[serde(default)]
    pub score_head: bool,
    /// Whether the net also predicts a number for every cell (a 1x1 convolution and tanh):
    /// who will own it when the game ends (KataGo's ownership head; for the variants with
    /// small boards, see `oxo_rules::Game::owner`), or the score margin still to be made
    /// there (the trainer's `train.cell_target`). An auxiliary training target only: search
    /// never reads it.
    #[serde(default)]
    pub ownership_head: bool,
    /// Side of the square patches the stem cuts the grid into: 1 (the default) keeps a
    /// vector per cell, AlphaZero's 3x3 stem; `p > 1` makes one vector per `p x p` block
    /// (a convolution with kernel and stride `p`), so the trunk runs on a grid `p * p` times
    /// smaller and the policy head gives each block's `p * p` cells their logits. With `p`
    /// the side of a variant's small boards (ultimate 3, extreme 4) the trunk sees one vector
    /// per small board: the big board's game at a fraction of the cost per position.
    #[serde(default = "default_patch", skip_serializing_if = "is_default_patch")]
    pub patch: usize,
}

/// A vector per cell: the stem of every net before `patch` existed.
fn default_patch() -> usize {
    1
}

/// Whether `patch` is the default, so that files and configs without it read the same.
fn is_default_patch(patch: &usize) -> bool {
    *patch == default_patch()
}

/// Two channels, as AlphaZero's heads use.
fn default_head_channels() -> usize {
    2
}

/// A hidden layer as wide as a small trunk.
fn default_value_hidden() -> usize {
    64
}

impl NetConfig {
    /// A config with `blocks` residual blocks of `channels` channels and default heads (no
    /// score head).
    pub fn new(blocks: usize, channels: usize) -> Self {
        NetConfig {
            blocks,
            channels,
            policy_channels: default_head_channels(),
            value_channels: default_head_channels(),
            value_hidden: default_value_hidden(),
            score_head: false,
            ownership_head: false,
            patch: default_patch(),
        }
    }

    /// The same config with the score-margin head switched on or off.
    pub fn with_score_head(mut self, score_head: bool) -> Self {
        self.score_head = score_head;
        self
    }

    /// The same config with a stem that cuts the grid into `patch x patch` blocks (see
    /// [`NetConfig::patch`]).
    pub fn with_patch(mut self, patch: usize) -> Self {
        self.patch = patch;
        self
    }

    /// The same config with the ownership head switched on or off.
    pub fn with_ownership_head(mut self, ownership_head: bool) -> Self {
        self.ownership_head = ownership_head;
        self
    }
}

/// How [`crate::Trainer`] updates the weights: AdamW with decoupled weight decay, and the
/// weights of the loss terms.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainConfig {
    /// AdamW's learning rate.
    pub learning_rate: f64,
    /// AdamW's decoupled weight decay (an L2 pull towards zero, per step, times the rate).
    pub weight_decay: f32,
    /// Weight of the score-margin squared error in the loss (ignored without a score head).
    pub score_weight: f32,
    /// Weight of the ownership squared error (mean over cells) in the loss (ignored without
    /// an ownership head).
    pub ownership_weight: f32,
}

impl Default for TrainConfig {
    /// A learning rate of 1e-3, weight decay 1e-4, score and ownership weights 1: sound for
    /// small nets.
    fn default() -> Self {
        TrainConfig {
            learning_rate: 1e-3,
            weight_decay: 1e-4,
            score_weight: 1.0,
            ownership_weight: 1.0,
        }
    }
}
