//! The residual policy/value network as a burn [`Module`], and the shapes it is built for.

use burn::module::Module;
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::{BatchNorm, BatchNormConfig, Linear, LinearConfig, PaddingConfig2d};
use burn::tensor::activation::relu;
use burn::tensor::{Device, Tensor};
use serde::{Deserialize, Serialize};

use crate::config::NetConfig;
use crate::encode::Encode;

/// Width of the value head's output: win, draw and loss logits, from the mover's point of
/// view, in that order.
pub const WDL: usize = 3;

/// The input and output shapes a network is built for: they follow from the variant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetShape {
    /// The variant's name (`Game::NAME`), so a model is never run on another variant.
    pub variant: String,
    /// Input planes (`Encode::PLANES`).
    pub planes: usize,
    /// Grid height (`Game::HEIGHT`).
    pub height: usize,
    /// Grid width (`Game::WIDTH`).
    pub width: usize,
    /// Policy outputs (`Game::NUM_ACTIONS`): cells, then the variant's extra actions.
    pub actions: usize,
}

impl NetShape {
    /// The shapes of variant `G`.
    pub fn of<G: Encode>() -> Self {
        NetShape {
            variant: G::NAME.to_string(),
            planes: G::PLANES,
            height: G::HEIGHT,
            width: G::WIDTH,
            actions: G::NUM_ACTIONS,
        }
    }

    /// Floats in one encoded position.
    pub fn input_size(&self) -> usize {
        self.planes * self.height * self.width
    }

    /// Grid cells.
    fn cells(&self) -> usize {
        self.height * self.width
    }
}

/// A convolution (without bias: the batch norm's shift replaces it) followed by batch norm.
#[derive(Module, Debug)]
struct ConvNorm {
    conv: Conv2d,
    norm: BatchNorm,
}

impl ConvNorm {
    /// A `kernel x kernel` convolution from `input` to `output` channels, padded to keep the
    /// grid's size.
    fn new(input: usize, output: usize, kernel: usize, device: &Device) -> Self {
        let pad = kernel / 2;
        ConvNorm {
            conv: Conv2dConfig::new([input, output], [kernel, kernel])
                .with_padding(PaddingConfig2d::Explicit(pad, pad, pad, pad))
                .with_bias(false)
                .init(device),
            norm: BatchNormConfig::new(output).init(device),
        }
    }

    fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        self.norm.forward(self.conv.forward(x))
    }
}

/// Two 3x3 conv + batch-norm layers with a skip connection around them.
#[derive(Module, Debug)]
struct ResBlock {
    first: ConvNorm,
    second: ConvNorm,
}

impl ResBlock {
    fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        let y = relu(self.first.forward(x.clone()));
        relu(self.second.forward(y) + x)
    }
}

/// What one forward pass returns for a batch of `B` positions.
pub(crate) struct Heads {
    /// Policy logits, `[B, actions]`.
    pub policy: Tensor<2>,
    /// Win/draw/loss logits, `[B, 3]`.
    pub wdl: Tensor<2>,
    /// Predicted score margin, `[B, 1]`, when the net has a score head.
    pub score: Option<Tensor<2>>,
}

/// The AlphaZero-style residual network: a 3x3 stem, a trunk of residual blocks, a policy
/// head (1x1 conv, then a linear layer to every action's logit) and a value head (1x1 conv,
/// a hidden layer, then win/draw/loss logits and optionally a score margin).
#[derive(Module, Debug)]
pub(crate) struct ResNet {
    stem: ConvNorm,
    blocks: Vec<ResBlock>,
    policy_conv: ConvNorm,
    policy_out: Linear,
    value_conv: ConvNorm,
    value_hidden: Linear,
    wdl_out: Linear,
    score_out: Option<Linear>,
}

impl ResNet {
    /// A freshly initialised network of `config`'s size for inputs and outputs of `shape`.
    pub fn new(shape: &NetShape, config: &NetConfig, device: &Device) -> Self {
        let c = config.channels;
        let cells = shape.cells();
        ResNet {
            stem: ConvNorm::new(shape.planes, c, 3, device),
            blocks: (0..config.blocks)
                .map(|_| ResBlock {
                    first: ConvNorm::new(c, c, 3, device),
                    second: ConvNorm::new(c, c, 3, device),
                })
                .collect(),
            policy_conv: ConvNorm::new(c, config.policy_channels, 1, device),
            policy_out: LinearConfig::new(config.policy_channels * cells, shape.actions)
                .init(device),
            value_conv: ConvNorm::new(c, config.value_channels, 1, device),
            value_hidden: LinearConfig::new(config.value_channels * cells, config.value_hidden)
                .init(device),
            wdl_out: LinearConfig::new(config.value_hidden, WDL).init(device),
            score_out: config
                .score_head
                .then(|| LinearConfig::new(config.value_hidden, 1).init(device)),
        }
    }

    /// Runs a batch `[B, planes, height, width]` through the net.
    pub fn forward(&self, input: Tensor<4>) -> Heads {
        let mut x = relu(self.stem.forward(input));
        for block in &self.blocks {
            x = block.forward(x);
        }
        let policy = relu(self.policy_conv.forward(x.clone())).flatten::<2>(1, 3);
        let value = relu(self.value_conv.forward(x)).flatten::<2>(1, 3);
        let hidden = relu(self.value_hidden.forward(value));
        Heads {
            policy: self.policy_out.forward(policy),
            wdl: self.wdl_out.forward(hidden.clone()),
            score: self.score_out.as_ref().map(|out| out.forward(hidden)),
        }
    }
}
