//! [`Engine`]: one worker's network evaluator, on onnxruntime or on burn, and
//! [`EngineModel`], a network made ready once for every worker's engine.

use std::fmt;
use std::str::FromStr;
use std::sync::Once;

use ort::session::Session;
use ort::session::builder::GraphOptimizationLevel;
use ort::value::TensorRef;
use oxo_nn::{
    Encode, Evaluation, INPUT_NAME, Net, NetShape, POLICY_OUTPUT, PositionEval, SCORE_OUTPUT,
    WDL_OUTPUT,
};
use serde::{Deserialize, Serialize};

use crate::library::{self, Runtime};

/// Which library evaluates the network in search (self-play, gating, ratings, play).
/// Training always runs on burn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineKind {
    /// onnxruntime on the CPU, on the ONNX export of the net (faster than burn on a CPU;
    /// `oxo bench nn` compares them); falls back to burn, saying so once, where the library
    /// is missing.
    #[default]
    Onnxruntime,
    /// burn on the device the run names (`--device`): always available.
    Burn,
    /// onnxruntime with its CUDA execution provider, on the first GPU `CUDA_VISIBLE_DEVICES`
    /// shows (the library of `pip install onnxruntime-gpu`, and CUDA's own libraries on the
    /// library path); falls back to onnxruntime on the CPU, saying so once, where it does not
    /// load.
    #[serde(rename = "onnxruntime-cuda")]
    OnnxruntimeCuda,
}

/// The engine names configs and `engine=` accept.
pub const ENGINE_NAMES: &str = "onnxruntime, burn, onnxruntime-cuda";

impl EngineKind {
    /// The CPU engines, onnxruntime first: what the benches compare by default.
    pub const ALL: [EngineKind; 2] = [EngineKind::Onnxruntime, EngineKind::Burn];

    /// Every engine.
    const EVERY: [EngineKind; 3] = [
        EngineKind::Onnxruntime,
        EngineKind::Burn,
        EngineKind::OnnxruntimeCuda,
    ];

    /// The name configs, specs and reports use.
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Onnxruntime => "onnxruntime",
            EngineKind::Burn => "burn",
            EngineKind::OnnxruntimeCuda => "onnxruntime-cuda",
        }
    }
}

impl fmt::Display for EngineKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for EngineKind {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        EngineKind::EVERY
            .into_iter()
            .find(|kind| kind.name() == text)
            .ok_or_else(|| format!("unknown engine '{text}': use one of {ENGINE_NAMES}"))
    }
}

/// Which engine will run for a request of `kind`: onnxruntime only where its library loads
/// (else burn), its CUDA provider only where that loads too (else onnxruntime on the CPU),
/// each fallback with one warning per process (a `tracing` event) saying how to get it.
pub fn resolve(kind: EngineKind) -> EngineKind {
    let cpu = || match library::onnxruntime() {
        Ok(_) => EngineKind::Onnxruntime,
        Err(why) => {
            static SAID: Once = Once::new();
            SAID.call_once(|| tracing::warn!("{why}. The network runs on burn instead."));
            EngineKind::Burn
        }
    };
    match kind {
        EngineKind::Burn => EngineKind::Burn,
        EngineKind::Onnxruntime => cpu(),
        EngineKind::OnnxruntimeCuda => match cpu() {
            EngineKind::Onnxruntime if cuda_available() => EngineKind::OnnxruntimeCuda,
            EngineKind::Onnxruntime => {
                static SAID: Once = Once::new();
                SAID.call_once(|| {
                    tracing::warn!(
                        "oxo: {} has no CUDA execution provider (install onnxruntime-gpu, \
                         with CUDA's libraries on the library path). The network runs on \
                         onnxruntime on the CPU instead.",
                        describe(EngineKind::Onnxruntime)
                    )
                });
                EngineKind::Onnxruntime
            }
            other => other,
        },
    }
}

/// Whether the loaded onnxruntime offers its CUDA execution provider.
fn cuda_available() -> bool {
    use ort::ep::ExecutionProvider;
    ort::ep::CUDA::is_available().unwrap_or(false)
}

/// What `run.json` and the benches record about an engine: its name and, for onnxruntime,
/// the library file and version that ran.
pub fn describe(kind: EngineKind) -> String {
    match (kind, library::onnxruntime()) {
        (EngineKind::Onnxruntime | EngineKind::OnnxruntimeCuda, Ok(runtime)) => {
            format!("{kind} {} ({})", runtime.version, runtime.library.display())
        }
        (kind, _) => kind.name().to_string(),
    }
}

/// A network made ready for the engine that will run it: for onnxruntime, its ONNX export
/// (made once, then each worker opens its own session from it).
pub struct EngineModel<'n> {
    net: &'n Net,
    /// The ONNX model, when onnxruntime runs it, and whether on its CUDA provider.
    onnx: Option<(Vec<u8>, &'static Runtime, bool)>,
}

impl<'n> EngineModel<'n> {
    /// Prepares `net` for `kind` ([`resolve`]d: burn where onnxruntime is missing).
    ///
    /// # Panics
    ///
    /// If the net cannot be exported to ONNX, which every net oxo builds can (tested).
    pub fn new(net: &'n Net, kind: EngineKind) -> EngineModel<'n> {
        let onnx = match (resolve(kind), library::onnxruntime()) {
            (EngineKind::Burn, _) | (_, Err(_)) => None,
            (kind, Ok(runtime)) => {
                let bytes = net.to_onnx().expect("every oxo net exports to ONNX");
                Some((bytes, runtime, kind == EngineKind::OnnxruntimeCuda))
            }
        };
        EngineModel { net, onnx }
    }

    /// `net` run by onnxruntime from the ONNX model `bytes` instead of the net's own export:
    /// another graph of the same net, such as its int8 quantization
    /// (`scripts/quantize_int8.py`). Refused in words where onnxruntime is missing, where it
    /// cannot load the model, or where the model's inputs and outputs (names and shapes) are
    /// not those `oxo export` writes for this net.
    pub fn with_onnx(net: &'n Net, bytes: Vec<u8>) -> Result<EngineModel<'n>, String> {
        let runtime = library::onnxruntime().map_err(str::to_string)?;
        let session =
            onnx_session(&bytes, runtime, 1, false).map_err(|e| format!("onnxruntime: {e}"))?;
        let found = (signature(session.inputs()), signature(session.outputs()));
        let expected = expected_signature(net);
        if found != expected {
            return Err(format!(
                "the model's inputs and outputs {found:?} are not this net's {expected:?} \
                 (name, shape; -1: the batch)"
            ));
        }
        Ok(EngineModel {
            net,
            onnx: Some((bytes, runtime, false)),
        })
    }

    /// The engine that runs this model.
    pub fn kind(&self) -> EngineKind {
        match self.onnx {
            Some((_, _, true)) => EngineKind::OnnxruntimeCuda,
            Some(_) => EngineKind::Onnxruntime,
            None => EngineKind::Burn,
        }
    }

    /// A new engine over this model using `threads` threads for each network call (1 for a
    /// worker that has a core to itself; burn's threads are the caller's rayon pool).
    ///
    /// # Panics
    ///
    /// If onnxruntime refuses the model or the options, which it does not for oxo's exports
    /// (tested).
    pub fn open(&self, threads: usize) -> Engine {
        let backend = match &self.onnx {
            Some((bytes, runtime, cuda)) => Backend::Onnx(
                onnx_session(bytes, runtime, threads, *cuda)
                    .unwrap_or_else(|e| panic!("onnxruntime session: {e}")),
                *cuda,
            ),
            None => Backend::Burn(Box::new(self.net.clone())),
        };
        Engine {
            backend,
            shape: self.net.shape().clone(),
            score_head: self.net.config().score_head,
            out: Evaluation::default(),
        }
    }
}

/// Inputs or outputs as (name, shape), the batch axis written -1.
type Signature = Vec<(String, Vec<i64>)>;

/// The names and shapes of a session's inputs or outputs (the first axis, the batch, as -1;
/// an empty shape for a non-tensor).
fn signature(outlets: &[ort::value::Outlet]) -> Signature {
    outlets
        .iter()
        .map(|outlet| {
            let mut shape = outlet
                .dtype()
                .tensor_shape()
                .map_or_else(Vec::new, |s| s.to_vec());
            if let Some(batch) = shape.first_mut() {
                *batch = -1;
            }
            (outlet.name().to_string(), shape)
        })
        .collect()
}

/// The inputs and outputs `oxo export` writes for `net`.
fn expected_signature(net: &Net) -> (Signature, Signature) {
    let shape = net.shape();
    let dims = |d: &[usize]| -> Vec<i64> {
        std::iter::once(-1)
            .chain(d.iter().map(|&x| x as i64))
            .collect()
    };
    let inputs = vec![(
        INPUT_NAME.to_string(),
        dims(&[shape.planes, shape.height, shape.width]),
    )];
    let outputs = net
        .onnx_outputs()
        .iter()
        .map(|&name| {
            let width = match name {
                POLICY_OUTPUT => shape.actions,
                WDL_OUTPUT => oxo_nn::WDL,
                _ => 1,
            };
            (name.to_string(), dims(&[width]))
        })
        .collect();
    (inputs, outputs)
}

/// An onnxruntime session for an ONNX model: all graph optimisations, `threads` intra-op
/// threads that do not spin between calls, no inter-op parallelism; on the CUDA provider
/// when `cuda` (an error if it does not load).
fn onnx_session(
    bytes: &[u8],
    runtime: &Runtime,
    threads: usize,
    cuda: bool,
) -> ort::Result<Session> {
    let mut builder = Session::builder(&runtime.environment)?;
    if cuda {
        // cuDNN's heuristic choice of convolution algorithm: the default exhaustive search
        // benchmarks every new input shape, and search's batch sizes vary from call to call.
        let provider = ort::ep::CUDA::default()
            .with_conv_algorithm_search(ort::ep::cuda::ConvAlgorithmSearch::Heuristic)
            .build()
            .error_on_failure();
        builder = builder.with_execution_providers([provider])?;
    }
    builder
        .with_optimization_level(GraphOptimizationLevel::All)?
        .with_intra_threads(threads.max(1))?
        .with_inter_threads(1)?
        .with_parallel_execution(false)?
        .with_intra_op_spinning(false)?
        .commit_from_memory(bytes)
}

/// The library behind an [`Engine`].
enum Backend {
    /// A session, and whether it runs on the CUDA provider.
    Onnx(Session, bool),
    Burn(Box<Net>),
}

/// One worker's network evaluator: positions encoded as [`Encode`] writes them in, the
/// net's raw outputs out, whichever engine runs it.
pub struct Engine {
    backend: Backend,
    shape: NetShape,
    score_head: bool,
    /// The last call's outputs, reused between calls.
    out: Evaluation,
}

impl Engine {
    /// The engine that runs.
    pub fn kind(&self) -> EngineKind {
        match self.backend {
            Backend::Onnx(_, false) => EngineKind::Onnxruntime,
            Backend::Onnx(_, true) => EngineKind::OnnxruntimeCuda,
            Backend::Burn(_) => EngineKind::Burn,
        }
    }

    /// Evaluates `batch` positions encoded back to back in `inputs`, as
    /// [`Net::evaluate`] does; the outputs stay valid until the next call.
    ///
    /// # Panics
    ///
    /// If `inputs` does not hold exactly `batch` positions, `batch` is 0, or onnxruntime
    /// fails to run the model.
    pub fn evaluate(&mut self, inputs: &[f32], batch: usize) -> &Evaluation {
        let shape = &self.shape;
        shape.check_batch(inputs, batch);
        match &mut self.backend {
            Backend::Burn(net) => self.out = net.evaluate(inputs, batch),
            Backend::Onnx(session, _) => {
                run_onnx(
                    session,
                    shape,
                    self.score_head,
                    inputs,
                    batch,
                    &mut self.out,
                )
                .unwrap_or_else(|e| panic!("onnxruntime: {e}"));
            }
        }
        &self.out
    }

    /// Evaluates one position without search, as [`Net::evaluate_position`] does.
    pub fn evaluate_position<G: Encode>(&mut self, game: &G) -> PositionEval {
        let mut input = vec![0.0; G::INPUT_SIZE];
        game.encode(&mut input);
        let out = self.evaluate(&input, 1);
        PositionEval::of(game, &out.policy, &out.wdl, out.score.first().copied())
    }
}

/// One onnxruntime call: the outputs copied into `out`.
fn run_onnx(
    session: &mut Session,
    shape: &NetShape,
    score_head: bool,
    inputs: &[f32],
    batch: usize,
    out: &mut Evaluation,
) -> ort::Result<()> {
    let dims = [batch, shape.planes, shape.height, shape.width];
    let planes = TensorRef::from_array_view((dims, inputs))?;
    let outputs = session.run(ort::inputs![INPUT_NAME => planes])?;
    let copy = |name: &str, into: &mut Vec<f32>| -> ort::Result<()> {
        let (_, values) = outputs[name].try_extract_tensor::<f32>()?;
        into.clear();
        into.extend_from_slice(values);
        Ok(())
    };
    copy(POLICY_OUTPUT, &mut out.policy)?;
    copy(WDL_OUTPUT, &mut out.wdl)?;
    if score_head {
        copy(SCORE_OUTPUT, &mut out.score)?;
    } else {
        out.score.clear();
    }
    Ok(())
}
