//! The network in formats other programs read: ONNX, produced by burn-onnx's exporter from a
//! trace of the forward pass, with a dynamic batch axis and named inputs and outputs; and
//! safetensors with PyTorch-style parameter names (burn-store's adapter).

use std::collections::HashMap;

use burn::tensor::Tensor;
use burn_onnx::export::{AxisSpec, InputSpec, OnnxExporter};
use burn_store::{BurnToPyTorchAdapter, ModuleSnapshot, SafetensorsStore};
use protobuf::Message;

use crate::error::NnError;
use crate::infer::Net;

/// Name of the ONNX input: `[batch, planes, height, width]` float32, as [`crate::Encode`]
/// writes positions.
pub const INPUT_NAME: &str = "planes";
/// Name of the ONNX policy output: `[batch, actions]` logits over every action index.
pub const POLICY_OUTPUT: &str = "policy_logits";
/// Name of the ONNX value output: `[batch, 3]` win/draw/loss logits for the player to move.
pub const WDL_OUTPUT: &str = "wdl_logits";
/// Name of the ONNX score output (nets with a score head only): `[batch, 1]`.
pub const SCORE_OUTPUT: &str = "score";
/// Name of the dynamic batch axis.
pub const BATCH_AXIS: &str = "batch";

impl Net {
    /// The names of the ONNX outputs of this net, in order.
    pub fn onnx_outputs(&self) -> &'static [&'static str] {
        if self.config().score_head {
            &[POLICY_OUTPUT, WDL_OUTPUT, SCORE_OUTPUT]
        } else {
            &[POLICY_OUTPUT, WDL_OUTPUT]
        }
    }

    /// The net as an ONNX model (opset 18, weights embedded): input [`INPUT_NAME`], outputs
    /// [`Net::onnx_outputs`], the batch axis dynamic.
    pub fn to_onnx(&self) -> Result<Vec<u8>, NnError> {
        let shape = self.shape();
        let input = |batch: usize| {
            Tensor::<4>::zeros(
                [batch, shape.planes, shape.height, shape.width],
                self.device(),
            )
        };
        let specs = [InputSpec::new([
            AxisSpec::dynamic(BATCH_AXIS),
            AxisSpec::Static,
            AxisSpec::Static,
            AxisSpec::Static,
        ])];
        let exporter = OnnxExporter::new();
        let model = &self.module().without_ownership();
        let exported = if self.config().score_head {
            exporter.export_dynamic(model, input(2), input(3), &specs, |m, x| {
                let heads = m.forward(x);
                let score = heads.score.expect("a net with a score head has a score");
                (heads.policy, heads.wdl, score)
            })
        } else {
            exporter.export_dynamic(model, input(2), input(3), &specs, |m, x| {
                let heads = m.forward(x);
                (heads.policy, heads.wdl)
            })
        };
        let bytes = exported
            .map_err(|e| onnx_error(e.to_string()))?
            .into_bytes();
        name_boundaries(&bytes, self.onnx_outputs())
    }

    /// The net's parameters and batch-norm statistics as safetensors, named as PyTorch would
    /// (`stem.conv.weight`, `blocks.0.first.norm.running_mean`, linear weights `[out, in]`).
    pub fn to_safetensors(&self) -> Result<Vec<u8>, NnError> {
        let error = |reason: String| NnError::Export {
            format: "safetensors",
            reason,
        };
        let mut store = SafetensorsStore::from_bytes(None)
            .with_to_adapter(BurnToPyTorchAdapter)
            .metadata("variant", self.shape().variant.clone());
        self.module()
            .save_into(&mut store)
            .map_err(|e| error(e.to_string()))?;
        store.get_bytes().map_err(|e| error(e.to_string()))
    }
}

fn onnx_error(reason: String) -> NnError {
    NnError::Export {
        format: "ONNX",
        reason,
    }
}

/// Renames the traced model's one runtime input to [`INPUT_NAME`] and its outputs to
/// `outputs` (the tracer numbers them), everywhere they are referenced.
fn name_boundaries(bytes: &[u8], outputs: &[&str]) -> Result<Vec<u8>, NnError> {
    let mut model =
        onnx_ir::ModelProto::parse_from_bytes(bytes).map_err(|e| onnx_error(e.to_string()))?;
    let graph = model.graph.mut_or_insert_default();
    let initializers: Vec<&str> = graph.initializer.iter().map(|t| t.name.as_str()).collect();
    let inputs: Vec<String> = graph
        .input
        .iter()
        .map(|v| v.name.clone())
        .filter(|name| !initializers.contains(&name.as_str()))
        .collect();
    if inputs.len() != 1 || graph.output.len() != outputs.len() {
        return Err(onnx_error(format!(
            "expected 1 input and {} outputs, the trace has {} and {}",
            outputs.len(),
            inputs.len(),
            graph.output.len()
        )));
    }
    let mut names: HashMap<String, String> = HashMap::new();
    names.insert(inputs[0].clone(), INPUT_NAME.to_string());
    for (output, name) in graph.output.iter().zip(outputs) {
        names.insert(output.name.clone(), name.to_string());
    }
    let rename = |name: &mut String| {
        if let Some(new) = names.get(name.as_str()) {
            *name = new.clone();
        }
    };
    graph.input.iter_mut().for_each(|v| rename(&mut v.name));
    graph.output.iter_mut().for_each(|v| rename(&mut v.name));
    graph
        .value_info
        .iter_mut()
        .for_each(|v| rename(&mut v.name));
    for node in graph.node.iter_mut() {
        node.input.iter_mut().for_each(rename);
        node.output.iter_mut().for_each(rename);
    }
    model
        .write_to_bytes()
        .map_err(|e| onnx_error(e.to_string()))
}
