//! Model and checkpoint files: Burnpack (`.bpk`) containers with oxo metadata.
//!
//! A *model* file holds the network's parameters (with the batch-norm running statistics) and
//! says, in the Burnpack metadata, which variant and shapes it was built for and its
//! [`NetConfig`]. A *checkpoint* holds the same plus the optimiser's state and the number of
//! training steps, in one file, so a model and its optimiser can never be restored from two
//! different moments. A checksum of the tensor data catches damage that Burnpack's own header
//! and size checks miss. Both are written to a scratch file beside the destination, synced, then
//! renamed over it (burn-pack's `Writer::write_to_file`), so a crash never leaves a half-written
//! file under the real name.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use burn::module::Module;
use burn::optim::{ModuleOptimizer, OptimizerRecord};
use burn::store::ModuleRecord;
use burn::tensor::Bytes;
use burn_pack::{Reader, Scalar, Writer};

use crate::config::NetConfig;
use crate::error::NnError;
use crate::net::{NetShape, ResNet};

/// Metadata key: the file format, [`FORMAT`].
const KEY_FORMAT: &str = "oxo.format";
/// Metadata key: what the file holds, a [`FileKind`].
const KEY_KIND: &str = "oxo.kind";
/// Metadata key: the [`NetShape`] as JSON.
const KEY_SHAPE: &str = "oxo.shape";
/// Metadata key: the [`NetConfig`] as JSON.
const KEY_NET: &str = "oxo.net";
/// Metadata key: training steps taken (checkpoints).
const KEY_STEPS: &str = "oxo.steps";
/// Metadata key: the tensors' [`checksum`].
const KEY_CHECKSUM: &str = "oxo.checksum";
/// Metadata key (averaged models only): the files averaged, as a JSON list of paths.
const KEY_AVERAGE_OF: &str = "oxo.average_of";
/// Metadata key (grown models only): the file the network was grown from, as a path.
const KEY_GROWN_FROM: &str = "oxo.grown_from";
/// The format written and understood.
const FORMAT: &str = "oxo-nn/1";
/// Tensor-name (and metadata / scalar key) prefix of a checkpoint's model parameters.
const MODEL_PREFIX: &str = "model/";
/// Tensor-name (and metadata / scalar key) prefix of a checkpoint's optimiser state.
const OPTIM_PREFIX: &str = "optim/";

/// What an oxo `.bpk` file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A network's parameters only: for inference and export.
    Model,
    /// A network's parameters, its optimiser's state and its step count: to resume training.
    Checkpoint,
}

impl FileKind {
    fn name(self) -> &'static str {
        match self {
            FileKind::Model => "model",
            FileKind::Checkpoint => "checkpoint",
        }
    }
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What an oxo `.bpk` file says about itself, read without loading its tensors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileInfo {
    /// Model or checkpoint.
    pub kind: FileKind,
    /// The variant and shapes the network was built for.
    pub shape: NetShape,
    /// The network's size.
    pub config: NetConfig,
    /// Training steps taken (0 for a model file).
    pub steps: u64,
    /// The files whose mean this network is (`oxo average`), as named then; empty for a
    /// network as trained.
    pub average_of: Vec<String>,
    /// The file this network was grown from by adding blocks (`oxo grow`), as named then;
    /// `None` for a network as trained.
    pub grown_from: Option<String>,
}

impl FileInfo {
    /// Reads the header of the oxo file at `path`.
    pub fn read(path: &Path) -> Result<FileInfo, NnError> {
        Ok(read(path)?.info)
    }

    /// Checks that this file holds a network for `shape`, and, when they are given, that it
    /// is a `kind` file and of size `config`.
    pub(crate) fn expect(
        &self,
        path: &Path,
        kind: Option<FileKind>,
        shape: &NetShape,
        config: Option<&NetConfig>,
    ) -> Result<(), NnError> {
        if let Some(kind) = kind
            && self.kind != kind
        {
            return Err(NnError::mismatch(
                path,
                format!("a {kind} file"),
                format!("a {}", self.kind),
            ));
        }
        if self.shape != *shape {
            return Err(NnError::mismatch(
                path,
                describe(shape),
                describe(&self.shape),
            ));
        }
        if let Some(config) = config
            && self.config != *config
        {
            return Err(NnError::mismatch(path, json(config), json(&self.config)));
        }
        Ok(())
    }
}

/// A shape in words, for error messages.
fn describe(shape: &NetShape) -> String {
    format!(
        "a {} network ({} planes of {}x{}, {} actions)",
        shape.variant, shape.planes, shape.height, shape.width, shape.actions
    )
}

/// `value` as compact JSON (the config and shape types cannot fail to serialise).
fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("plain structs serialise")
}

/// One tensor of a file, taken apart: what is renamed, checked and put back together.
struct Part {
    name: String,
    dtype: burn_pack::DType,
    shape: burn_pack::Shape,
    id: Option<u64>,
    bytes: Bytes,
}

impl Part {
    /// Takes every tensor apart.
    fn all(tensors: Vec<burn_pack::Tensor>) -> Result<Vec<Part>, burn_pack::Error> {
        tensors
            .into_iter()
            .map(|tensor| {
                let (name, dtype, shape, id, bytes) = tensor.into_parts()?;
                Ok(Part {
                    name,
                    dtype,
                    shape,
                    id,
                    bytes,
                })
            })
            .collect()
    }

    /// Puts the tensor back together.
    fn into_tensor(self) -> burn_pack::Tensor {
        burn_pack::Tensor::new(self.name, self.dtype, self.shape, self.id, self.bytes)
    }
}

/// An FNV-1a hash of every tensor's name and bytes, in name order: Burnpack checks its header
/// and sizes but not the data, and a flipped bit in a weight must not load silently.
fn checksum(parts: &[Part]) -> String {
    let mut order: Vec<&Part> = parts.iter().collect();
    order.sort_by(|a, b| a.name.cmp(&b.name));
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in order {
        for &byte in part
            .name
            .as_bytes()
            .iter()
            .chain([0u8].iter())
            .chain(part.bytes.iter())
        {
            hash = (hash ^ byte as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{hash:016x}")
}

/// The tensors of a module, taken apart, named by module path (with parameter ids).
fn module_parts(model: &ResNet, path: &Path) -> Result<Vec<Part>, NnError> {
    let bytes = model
        .valid()
        .into_record()
        .into_bytes()
        .map_err(|e| NnError::corrupt(path, e))?;
    Reader::from_bytes(bytes)
        .and_then(Reader::into_tensors)
        .and_then(Part::all)
        .map_err(|e| NnError::corrupt(path, e))
}

/// What a file holds besides its tensors: the oxo header and the optimiser's metadata and
/// scalars (checkpoints).
struct Extras<'a> {
    kind: FileKind,
    shape: &'a NetShape,
    config: &'a NetConfig,
    steps: u64,
    metadata: BTreeMap<String, String>,
    scalars: BTreeMap<String, Scalar>,
}

/// Writes `parts` (already named) and `extras` to `path` atomically: a scratch file beside it,
/// synced, then renamed over it.
fn write(path: &Path, parts: Vec<Part>, extras: Extras) -> Result<(), NnError> {
    let sum = checksum(&parts);
    let tensors = parts.into_iter().map(Part::into_tensor).collect();
    let mut writer = Writer::new(tensors)
        .with_metadata(KEY_FORMAT, FORMAT)
        .with_metadata(KEY_KIND, extras.kind.name())
        .with_metadata(KEY_SHAPE, &json(extras.shape))
        .with_metadata(KEY_NET, &json(extras.config))
        .with_metadata(KEY_STEPS, &extras.steps.to_string())
        .with_metadata(KEY_CHECKSUM, &sum);
    for (key, value) in &extras.metadata {
        writer = writer.with_metadata(key, value);
    }
    for (key, value) in &extras.scalars {
        writer = writer.with_scalar(key, *value);
    }
    writer
        .auto_extension(false)
        .write_to_file(path)
        .map_err(|e| NnError::Io {
            path: path.to_path_buf(),
            source: std::io::Error::other(e.to_string()),
        })
}

/// Saves a model file.
pub(crate) fn save_model(
    path: &Path,
    model: &ResNet,
    shape: &NetShape,
    config: &NetConfig,
) -> Result<(), NnError> {
    let extras = Extras {
        kind: FileKind::Model,
        shape,
        config,
        steps: 0,
        metadata: BTreeMap::new(),
        scalars: BTreeMap::new(),
    };
    write(path, module_parts(model, path)?, extras)
}

/// Renames every part by putting `prefix` in front of its name.
fn prefix_all(parts: Vec<Part>, prefix: &str) -> impl Iterator<Item = Part> {
    parts.into_iter().map(move |mut part| {
        part.name = format!("{prefix}{}", part.name);
        part
    })
}

/// Saves a checkpoint: the model's tensors under [`MODEL_PREFIX`], the optimiser's tensors,
/// per-parameter paths and scalars under [`OPTIM_PREFIX`].
pub(crate) fn save_checkpoint(
    path: &Path,
    model: &ResNet,
    optim: &ModuleOptimizer,
    shape: &NetShape,
    config: &NetConfig,
    steps: u64,
) -> Result<(), NnError> {
    let corrupt = |e: &dyn fmt::Display| NnError::corrupt(path, e);
    let optim = Reader::from_bytes(optim.into_bytes().map_err(|e| corrupt(&e))?)
        .map_err(|e| corrupt(&e))?;
    let extras = Extras {
        kind: FileKind::Checkpoint,
        shape,
        config,
        steps,
        metadata: with_prefix(optim.metadata(), OPTIM_PREFIX),
        scalars: with_prefix(optim.scalars(), OPTIM_PREFIX),
    };
    let optim_parts = optim
        .into_tensors()
        .and_then(Part::all)
        .map_err(|e| corrupt(&e))?;
    let parts = prefix_all(module_parts(model, path)?, MODEL_PREFIX)
        .chain(prefix_all(optim_parts, OPTIM_PREFIX))
        .collect();
    write(path, parts, extras)
}

/// The entries of `map` with `prefix` put before their keys.
fn with_prefix<V: Clone>(map: &BTreeMap<String, V>, prefix: &str) -> BTreeMap<String, V> {
    map.iter()
        .map(|(key, value)| (format!("{prefix}{key}"), value.clone()))
        .collect()
}

/// The entries of `map` whose keys start with `prefix`, without it.
fn under_prefix<V: Clone>(map: &BTreeMap<String, V>, prefix: &str) -> BTreeMap<String, V> {
    map.iter()
        .filter_map(|(key, value)| Some((key.strip_prefix(prefix)?.to_string(), value.clone())))
        .collect()
}

/// An oxo file as read: its header, its metadata and scalars, and its tensors (checksum
/// verified).
struct Contents {
    info: FileInfo,
    metadata: BTreeMap<String, String>,
    scalars: BTreeMap<String, Scalar>,
    parts: Vec<Part>,
}

/// The largest model or checkpoint file oxo reads: far above any net it trains (a 20x256
/// net with its optimiser state is about 200 MB), far below what would exhaust memory.
pub const MAX_FILE_BYTES: u64 = 1 << 30;

/// The bytes of the regular file at `path`, at most `max` of them: a device (`/dev/zero`),
/// a pipe or a larger file is an error (`InvalidInput`) instead of a read without end. Every
/// file oxo loads that a user names (models, checkpoints, ONNX graphs) is read through it.
pub fn read_bounded(path: &Path, max: u64) -> std::io::Result<Vec<u8>> {
    use std::io::{Error, ErrorKind, Read};
    let file = std::fs::File::open(path)?;
    let kind = file.metadata()?;
    if !kind.is_file() {
        return Err(Error::new(ErrorKind::InvalidInput, "not a regular file"));
    }
    let mut data = Vec::with_capacity(kind.len().min(max) as usize);
    file.take(max + 1).read_to_end(&mut data)?;
    if data.len() as u64 > max {
        return Err(Error::new(
            ErrorKind::InvalidInput,
            format!("larger than {max} bytes"),
        ));
    }
    Ok(data)
}

/// Reads and checks an oxo file.
fn read(path: &Path) -> Result<Contents, NnError> {
    let data = read_bounded(path, MAX_FILE_BYTES).map_err(|source| NnError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let reader = Reader::from_bytes(Bytes::from_bytes_vec(data))
        .map_err(|e| NnError::corrupt(path, format!("not a Burnpack file ({e})")))?;
    let metadata = reader.metadata().clone();
    let scalars = reader.scalars().clone();
    let get = |key: &str| {
        metadata
            .get(key)
            .ok_or_else(|| NnError::corrupt(path, format!("no '{key}' in its metadata")))
    };
    let format = get(KEY_FORMAT)?;
    if format != FORMAT {
        return Err(NnError::corrupt(
            path,
            format!("format '{format}', expected '{FORMAT}'"),
        ));
    }
    let kind = match get(KEY_KIND)?.as_str() {
        "model" => FileKind::Model,
        "checkpoint" => FileKind::Checkpoint,
        other => return Err(NnError::corrupt(path, format!("unknown kind '{other}'"))),
    };
    let bad = |key: &str, e: &dyn fmt::Display| NnError::corrupt(path, format!("bad '{key}': {e}"));
    let shape = serde_json::from_str(get(KEY_SHAPE)?).map_err(|e| bad(KEY_SHAPE, &e))?;
    let config = serde_json::from_str(get(KEY_NET)?).map_err(|e| bad(KEY_NET, &e))?;
    let steps = get(KEY_STEPS)?.parse().map_err(|e| bad(KEY_STEPS, &e))?;
    let average_of = match metadata.get(KEY_AVERAGE_OF) {
        Some(list) => serde_json::from_str(list).map_err(|e| bad(KEY_AVERAGE_OF, &e))?,
        None => Vec::new(),
    };
    let grown_from = metadata.get(KEY_GROWN_FROM).cloned();
    let parts = reader
        .into_tensors()
        .and_then(Part::all)
        .map_err(|e| NnError::corrupt(path, e))?;
    let sum = checksum(&parts);
    if *get(KEY_CHECKSUM)? != sum {
        return Err(NnError::corrupt(
            path,
            "its tensor data does not match its checksum (damaged file)",
        ));
    }
    if let Some(name) = first_non_finite(&parts) {
        return Err(NnError::corrupt(
            path,
            format!("tensor '{name}' holds a value that is not finite (NaN or infinity)"),
        ));
    }
    let info = FileInfo {
        kind,
        shape,
        config,
        steps,
        average_of,
        grown_from,
    };
    Ok(Contents {
        info,
        metadata,
        scalars,
        parts,
    })
}

/// Applies `parts` (named by module path) to `model`, failing on any missing, unused or
/// wrongly shaped tensor.
fn apply(model: ResNet, parts: Vec<Part>, path: &Path) -> Result<ResNet, NnError> {
    let tensors = parts.into_iter().map(Part::into_tensor).collect();
    let bytes = Writer::new(tensors)
        .into_bytes()
        .map_err(|e| NnError::corrupt(path, e))?;
    let record = ModuleRecord::from_bytes(bytes).map_err(|e| NnError::corrupt(path, e))?;
    model
        .try_load_record(record)
        .map_err(|e| NnError::corrupt(path, e))
}

/// The model's parts of a file: all of a model file's, the [`MODEL_PREFIX`]ed ones of a
/// checkpoint's (prefix removed).
fn model_parts(kind: FileKind, parts: Vec<Part>) -> Vec<Part> {
    match kind {
        FileKind::Model => parts,
        FileKind::Checkpoint => parts
            .into_iter()
            .filter_map(|mut part| {
                part.name = part.name.strip_prefix(MODEL_PREFIX)?.to_string();
                Some(part)
            })
            .collect(),
    }
}

/// Loads the network of a model file or checkpoint for `shape` (and of size `config`, when
/// given) into a fresh network that `build` makes for the file's size. Returns it with that
/// size.
pub(crate) fn load_model(
    path: &Path,
    shape: &NetShape,
    config: Option<&NetConfig>,
    build: impl FnOnce(&NetConfig) -> ResNet,
) -> Result<(ResNet, NetConfig), NnError> {
    let contents = read(path)?;
    let info = contents.info;
    info.expect(path, None, shape, config)?;
    let model = apply(
        build(&info.config),
        model_parts(info.kind, contents.parts),
        path,
    )?;
    Ok((model, info.config))
}

/// Writes to `out` a model file whose every tensor is the mean of that tensor over the model
/// files or checkpoints `paths` (stochastic weight averaging: late snapshots of one run,
/// averaged, make a net with less of the noise of the last few training steps; KataGo
/// exports its nets this way). The batch-norm running statistics are averaged too, which is
/// exact for the means and close for the variances of snapshots this near each other. All
/// files must hold the same network (variant, shapes, size); each is checked as any load
/// checks it. Returns what the files hold.
pub fn average_models(paths: &[&Path], out: &Path) -> Result<FileInfo, NnError> {
    let (first, rest) = paths
        .split_first()
        .ok_or_else(|| NnError::corrupt(out, "no model files to average (name at least one)"))?;
    let contents = read(first)?;
    let info = contents.info.clone();
    let mut sums = float_sums(first, model_parts(info.kind, contents.parts))?;
    for path in rest {
        let contents = read(path)?;
        contents
            .info
            .expect(path, None, &info.shape, Some(&info.config))?;
        add_parts(
            &mut sums,
            path,
            model_parts(contents.info.kind, contents.parts),
        )?;
    }
    let count = paths.len() as f64;
    let average_of: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    let parts = sums
        .into_iter()
        .map(|(name, (template, sum))| Part {
            name,
            bytes: Bytes::from_bytes_vec(
                sum.iter()
                    .flat_map(|total| ((total / count) as f32).to_le_bytes())
                    .collect(),
            ),
            ..template
        })
        .collect();
    let extras = Extras {
        kind: FileKind::Model,
        shape: &info.shape,
        config: &info.config,
        steps: 0,
        metadata: BTreeMap::from([(KEY_AVERAGE_OF.to_string(), json(&average_of))]),
        scalars: BTreeMap::new(),
    };
    write(out, parts, extras)?;
    Ok(FileInfo {
        kind: FileKind::Model,
        steps: 0,
        average_of,
        grown_from: None,
        ..info
    })
}

/// Writes to `out` a model file of the network in `path` grown to `blocks` residual blocks
/// and to the inputs of `shape` (the variant's encoding as it is now), computing the same
/// function: Net2Net's deeper net, as "zero-init residual" initialises it, and new input
/// planes that nothing reads yet.
///
/// - The file's blocks, stem and heads keep their weights. Each new block goes after them
///   with the batch norm that closes its skip branch scaled to zero, so it passes its
///   (non-negative) input through unchanged until training moves that scale; its
///   convolutions start as a fresh net's.
/// - Where the encoding has gained planes since the file was written (`shape` has more than
///   the file's, all else equal), they are the planes before the last one (every encoding
///   ends with its all-ones plane and adds planes just before it), and the stem's weights on
///   them start at zero.
///
/// A larger or better-informed net then starts from what the file's net knows instead of
/// relearning it. Returns what `out` holds.
pub fn grow_model(
    path: &Path,
    blocks: usize,
    shape: &NetShape,
    out: &Path,
) -> Result<FileInfo, NnError> {
    let contents = read(path)?;
    let info = contents.info;
    let added_planes = shape.planes.saturating_sub(info.shape.planes);
    let same_but_planes = NetShape {
        planes: shape.planes,
        ..info.shape.clone()
    };
    if same_but_planes != *shape {
        info.expect(path, None, shape, None)?;
    }
    if blocks < info.config.blocks || (blocks == info.config.blocks && added_planes == 0) {
        return Err(NnError::mismatch(
            path,
            format!(
                "a network to grow: fewer blocks than {blocks}, or fewer input planes than the \
                 encoding's {}",
                shape.planes
            ),
            format!(
                "{} blocks and {} planes",
                info.config.blocks, info.shape.planes
            ),
        ));
    }
    let config = NetConfig {
        blocks,
        ..info.config.clone()
    };
    let fresh = ResNet::new(shape, &config, &burn::tensor::Device::flex());
    let mut known: BTreeMap<String, Part> = model_parts(info.kind, contents.parts)
        .into_iter()
        .map(|part| (part.name.clone(), part))
        .collect();
    let mut parts = Vec::new();
    for part in module_parts(&fresh, out)? {
        parts.push(match known.remove(&part.name) {
            Some(trained) if trained.shape == part.shape => trained,
            Some(stem) if part.name == STEM_WEIGHT => with_planes_added(stem, &part, path)?,
            Some(other) => {
                return Err(NnError::corrupt(
                    path,
                    format!("tensor '{}' does not fit a grown net", other.name),
                ));
            }
            None if silences_new_block(&part.name) => Part {
                bytes: Bytes::from_bytes_vec(vec![0; part.bytes.len()]),
                ..part
            },
            None => part,
        });
    }
    if let Some(name) = known.keys().next() {
        return Err(NnError::corrupt(
            path,
            format!("tensor '{name}' has no place in a grown net"),
        ));
    }
    let grown_from = path.display().to_string();
    let extras = Extras {
        kind: FileKind::Model,
        shape,
        config: &config,
        steps: 0,
        metadata: BTreeMap::from([(KEY_GROWN_FROM.to_string(), grown_from.clone())]),
        scalars: BTreeMap::new(),
    };
    write(out, parts, extras)?;
    Ok(FileInfo {
        kind: FileKind::Model,
        shape: shape.clone(),
        config,
        steps: 0,
        average_of: Vec::new(),
        grown_from: Some(grown_from),
    })
}

/// The name of the stem's convolution weights, `[channels, planes, k, k]`.
const STEM_WEIGHT: &str = "stem.conv.weight";

/// The stem's weights `stem` (of the file's planes) laid out as `template` (of more planes):
/// each output channel's weights on the file's planes but the last, zeros on the added ones,
/// then its weights on the last (all-ones) plane.
fn with_planes_added(stem: Part, template: &Part, path: &Path) -> Result<Part, NnError> {
    let (old, new) = (stem.shape.as_slice(), template.shape.as_slice());
    let weights = float_values(&stem).filter(|_| {
        old.len() == 4
            && new.len() == 4
            && old[0] == new[0]
            && old[1] < new[1]
            && old[2..] == new[2..]
    });
    let Some(weights) = weights else {
        return Err(NnError::corrupt(
            path,
            format!("its stem {old:?} does not fit a stem of {new:?}"),
        ));
    };
    let kernel = old[2] * old[3];
    let (old_planes, new_planes) = (old[1], new[1]);
    let mut grown = vec![0f32; new[0] * new_planes * kernel];
    for (channel, rows) in weights.chunks(old_planes * kernel).enumerate() {
        let target = &mut grown[channel * new_planes * kernel..][..new_planes * kernel];
        let kept = (old_planes - 1) * kernel;
        target[..kept]
            .iter_mut()
            .zip(&rows[..kept])
            .for_each(|(t, &w)| *t = w as f32);
        target[(new_planes - 1) * kernel..]
            .iter_mut()
            .zip(&rows[kept..])
            .for_each(|(t, &w)| *t = w as f32);
    }
    Ok(Part {
        name: template.name.clone(),
        dtype: template.dtype,
        shape: template.shape.clone(),
        id: template.id,
        bytes: Bytes::from_bytes_vec(grown.iter().flat_map(|w| w.to_le_bytes()).collect()),
    })
}

/// Whether the tensor `name` of a new block is the scale or shift of the batch norm that
/// closes its skip branch, which [`grow_model`] sets to zero.
fn silences_new_block(name: &str) -> bool {
    name.starts_with("blocks.")
        && (name.ends_with(".second.norm.gamma") || name.ends_with(".second.norm.beta"))
}

/// A file's tensors by name, each with its values (as f64, to be summed) and the part it came
/// from (for its name, type, shape and id). Only 32-bit float tensors can be averaged.
type Sums = BTreeMap<String, (Part, Vec<f64>)>;

/// The values of one tensor, widened for summing; `None` unless it is a 32-bit float one.
fn float_values(part: &Part) -> Option<Vec<f64>> {
    (part.dtype == burn_pack::DType::F32).then(|| {
        part.bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64)
            .collect()
    })
}

/// The first file's tensors, as the running sums.
fn float_sums(path: &Path, parts: Vec<Part>) -> Result<Sums, NnError> {
    let mut sums = Sums::new();
    for part in parts {
        let values = float_values(&part).ok_or_else(|| {
            NnError::corrupt(path, format!("tensor '{}' is not 32-bit float", part.name))
        })?;
        sums.insert(part.name.clone(), (part, values));
    }
    Ok(sums)
}

/// Adds a further file's tensors to `sums`: the same names, each of the same shape.
fn add_parts(sums: &mut Sums, path: &Path, parts: Vec<Part>) -> Result<(), NnError> {
    if parts.len() != sums.len() {
        return Err(NnError::corrupt(
            path,
            format!(
                "{} tensors where the first file has {}",
                parts.len(),
                sums.len()
            ),
        ));
    }
    for part in parts {
        let (template, sum) = sums.get_mut(&part.name).ok_or_else(|| {
            NnError::corrupt(
                path,
                format!("tensor '{}' is not in the first file", part.name),
            )
        })?;
        match float_values(&part) {
            Some(values) if template.shape == part.shape && values.len() == sum.len() => {
                sum.iter_mut()
                    .zip(values)
                    .for_each(|(total, v)| *total += v);
            }
            _ => {
                return Err(NnError::corrupt(
                    path,
                    format!(
                        "tensor '{}' differs in type or shape from the first file's",
                        part.name
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// A checkpoint as loaded: the model, the optimiser (state restored) and the step count.
pub(crate) struct Checkpoint {
    pub model: ResNet,
    pub optim: ModuleOptimizer,
    pub steps: u64,
}

/// Loads a checkpoint for `shape` and `config` into `model` (freshly built) and `optim`
/// (freshly configured).
pub(crate) fn load_checkpoint(
    path: &Path,
    shape: &NetShape,
    config: &NetConfig,
    model: ResNet,
    optim: ModuleOptimizer,
) -> Result<Checkpoint, NnError> {
    let contents = read(path)?;
    contents
        .info
        .expect(path, Some(FileKind::Checkpoint), shape, Some(config))?;
    let corrupt = |e: &dyn fmt::Display| NnError::corrupt(path, e);
    let (mut model_parts, mut optim_parts) = (Vec::new(), Vec::new());
    for mut part in contents.parts {
        if let Some(name) = part.name.strip_prefix(MODEL_PREFIX) {
            part.name = name.to_string();
            model_parts.push(part);
        } else if let Some(name) = part.name.strip_prefix(OPTIM_PREFIX) {
            part.name = name.to_string();
            optim_parts.push(part);
        } else {
            return Err(corrupt(&format!("unexpected tensor '{}'", part.name)));
        }
    }
    let model = apply(model, model_parts, path)?;
    // The optimiser keys its state by parameter id, and panics on state without one: every
    // piece must belong to a parameter of the model just loaded.
    let mut param_ids = Vec::new();
    model.visit(&mut ParamIds(&mut param_ids));
    if let Some(stray) = optim_parts
        .iter()
        .find(|part| !part.id.is_some_and(|id| param_ids.contains(&id)))
    {
        return Err(corrupt(&format!(
            "optimiser state '{}' belongs to no parameter of the model",
            stray.name
        )));
    }
    let tensors = optim_parts.into_iter().map(Part::into_tensor).collect();
    let mut writer = Writer::new(tensors);
    for (key, value) in &under_prefix(&contents.metadata, OPTIM_PREFIX) {
        writer = writer.with_metadata(key, value);
    }
    for (key, value) in &under_prefix(&contents.scalars, OPTIM_PREFIX) {
        writer = writer.with_scalar(key, *value);
    }
    let bytes = writer.into_bytes().map_err(|e| corrupt(&e))?;
    let record = OptimizerRecord::from_bytes(bytes).map_err(|e| corrupt(&e))?;
    Ok(Checkpoint {
        model,
        optim: optim.load_record(record),
        steps: contents.info.steps,
    })
}

/// Collects the ids of a module's float parameters (running statistics included).
struct ParamIds<'a>(&'a mut Vec<u64>);

impl burn::module::ModuleVisitor for ParamIds<'_> {
    fn visit_float<const D: usize>(
        &mut self,
        param: &burn::module::Param<burn::tensor::Tensor<D>>,
    ) {
        self.0.push(param.id.val());
    }
}

/// The name of the first floating-point tensor holding a NaN or an infinity. Such a net
/// computes nothing useful (a diverged run saves one), and the checksum cannot rule it out:
/// it guards against damage, not against a file written with one, and a fuzzer forged one
/// within 5,000 inputs by copying the checksum it computed into the file.
fn first_non_finite(parts: &[Part]) -> Option<&str> {
    let finite = |part: &Part| match part.dtype {
        burn_pack::DType::F32 => part
            .bytes
            .chunks_exact(4)
            .all(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]).is_finite()),
        burn_pack::DType::F64 => part
            .bytes
            .chunks_exact(8)
            .all(|b| f64::from_le_bytes(b.try_into().expect("8 bytes")).is_finite()),
        _ => true,
    };
    parts
        .iter()
        .find(|part| !finite(part))
        .map(|part| part.name.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Net;
    use burn::tensor::Device;
    use oxo_variants::tictactoe::TicTacToe;
    use std::path::PathBuf;

    /// Found by fuzzing: a model whose weights hold a NaN under a checksum that matches them
    /// loaded, and its net answered NaN. It is refused, naming the tensor.
    #[test]
    fn a_non_finite_weight_is_refused_by_name_even_under_a_valid_checksum() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("model.bpk");
        Net::new::<TicTacToe>(&NetConfig::new(1, 4), &Device::flex())
            .save(&path)
            .unwrap();
        let contents = read(&path).unwrap();
        let mut parts = contents.parts;
        let victim = parts
            .iter_mut()
            .find(|part| part.dtype == burn_pack::DType::F32)
            .unwrap();
        let mut bytes = victim.bytes.to_vec();
        bytes[..4].copy_from_slice(&f32::NAN.to_le_bytes());
        victim.bytes = Bytes::from_bytes_vec(bytes);
        let name = victim.name.clone();
        let extras = Extras {
            kind: FileKind::Model,
            shape: &contents.info.shape,
            config: &contents.info.config,
            steps: 0,
            metadata: BTreeMap::new(),
            scalars: BTreeMap::new(),
        };
        write(&path, parts, extras).unwrap();
        let err = Net::load::<TicTacToe>(&path, &Device::flex())
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains(&name) && err.contains("not finite"), "{err}");
    }

    /// The values of every tensor of the model file at `path`, by name.
    fn tensors(path: &Path) -> BTreeMap<String, Vec<f64>> {
        read(path)
            .unwrap()
            .parts
            .iter()
            .map(|part| (part.name.clone(), float_values(part).unwrap()))
            .collect()
    }

    #[test]
    fn an_average_holds_each_tensors_mean_and_loads_as_a_model() {
        let dir = tempfile::tempdir().unwrap();
        let config = NetConfig::new(1, 4);
        let paths: Vec<_> = (0..3)
            .map(|i| dir.path().join(format!("gen-{i}.bpk")))
            .collect();
        for path in &paths {
            Net::new::<TicTacToe>(&config, &Device::flex())
                .save(path)
                .unwrap();
        }
        let out = dir.path().join("mean.bpk");
        let inputs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
        let info = average_models(&inputs, &out).unwrap();
        assert_eq!((info.kind, &info.config), (FileKind::Model, &config));
        assert_eq!(
            FileInfo::read(&out).unwrap(),
            info,
            "the header says what was averaged"
        );
        assert_eq!(info.average_of.len(), 3);
        assert!(
            info.average_of[2].ends_with("gen-2.bpk"),
            "{:?}",
            info.average_of
        );
        let snapshots: Vec<_> = paths.iter().map(|path| tensors(path)).collect();
        assert_ne!(
            snapshots[0], snapshots[1],
            "fresh nets differ, or the test shows nothing"
        );
        for (name, mean) in tensors(&out) {
            for (i, value) in mean.iter().enumerate() {
                let expected = snapshots.iter().map(|s| s[&name][i]).sum::<f64>() / 3.0;
                assert!(
                    (value - expected).abs() < 1e-6,
                    "{name}[{i}]: {value} vs {expected}"
                );
            }
        }
        Net::load::<TicTacToe>(&out, &Device::flex()).unwrap();
    }

    /// A random net of one block trained a few steps on random tictactoe positions, so
    /// that its batch norms hold statistics and shifts of their own, saved at `path`.
    fn trained_small_net(path: &Path) -> NetConfig {
        let config = NetConfig::new(1, 4).with_score_head(true);
        let mut trainer = crate::Trainer::new::<TicTacToe>(
            &config,
            &crate::TrainConfig::default(),
            &Device::flex(),
        );
        let inputs = positions(8);
        let policy = vec![1.0 / 9.0; 8 * 9];
        let wdl: Vec<f32> = (0..8)
            .flat_map(|i| [(i % 2) as f32, 0.0, 1.0 - (i % 2) as f32])
            .collect();
        let score: Vec<f32> = (0..8).map(|i| i as f32 / 8.0 - 0.5).collect();
        let batch = crate::Batch {
            size: 8,
            inputs: &inputs,
            policy: &policy,
            wdl: &wdl,
            score: Some(&score),
            ownership: None,
        };
        for _ in 0..5 {
            trainer.train_step(&batch);
        }
        trainer.net().save(path).unwrap();
        config
    }

    /// The encodings of `count` tictactoe positions along one line of play.
    fn positions(count: usize) -> Vec<f32> {
        use oxo_encode::Encode;
        use oxo_rules::Game;
        let mut game = TicTacToe::new();
        let mut inputs = vec![0.0; count * TicTacToe::INPUT_SIZE];
        for (i, chunk) in inputs.chunks_mut(TicTacToe::INPUT_SIZE).enumerate() {
            if game.is_over() {
                game = TicTacToe::new();
            }
            game.encode(chunk);
            game.play([4, 0, 8, 2, 6, 3, 5, 1, 7][i % 9]);
        }
        inputs
    }

    /// Asserts that two nets' answers to the same positions agree to rounding, head by head.
    fn assert_same_outputs(a: crate::Evaluation, b: crate::Evaluation) {
        for (x, y) in [(a.policy, b.policy), (a.wdl, b.wdl), (a.score, b.score)] {
            assert_eq!(x.len(), y.len());
            for (x, y) in x.iter().zip(&y) {
                assert!((x - y).abs() < 1e-5, "{x} vs {y}");
            }
        }
    }

    #[test]
    fn a_grown_net_computes_what_it_grew_from_and_its_new_blocks_then_learn() {
        let dir = tempfile::tempdir().unwrap();
        let (small, grown) = (dir.path().join("small.bpk"), dir.path().join("grown.bpk"));
        let config = trained_small_net(&small);
        let info = grow_model(&small, 3, &NetShape::of::<TicTacToe>(), &grown).unwrap();
        assert_eq!(info.config.blocks, 3);
        assert_eq!(FileInfo::read(&grown).unwrap(), info, "the header says so");
        assert!(info.grown_from.unwrap().ends_with("small.bpk"));
        let before = Net::load::<TicTacToe>(&small, &Device::flex()).unwrap();
        let after = Net::load::<TicTacToe>(&grown, &Device::flex()).unwrap();
        let inputs = positions(9);
        assert_same_outputs(before.evaluate(&inputs, 9), after.evaluate(&inputs, 9));
        let trained = tensors(&small);
        let grown_tensors = tensors(&grown);
        for (name, values) in &trained {
            assert_eq!(&grown_tensors[name], values, "{name} is kept");
        }
        assert!(
            grown_tensors["blocks.2.second.norm.gamma"]
                .iter()
                .all(|&g| g == 0.0)
        );
        // Training moves the silenced scale: the new blocks take part from the first steps.
        let deeper = NetConfig {
            blocks: 3,
            ..config
        };
        let mut trainer = crate::Trainer::from_model::<TicTacToe>(
            &grown,
            &deeper,
            &crate::TrainConfig::default(),
            &Device::flex(),
        )
        .unwrap();
        let policy = vec![1.0 / 9.0; 9 * 9];
        let wdl: Vec<f32> = (0..9).flat_map(|_| [1.0, 0.0, 0.0]).collect();
        let batch = crate::Batch {
            size: 9,
            inputs: &inputs,
            policy: &policy,
            wdl: &wdl,
            score: None,
            ownership: None,
        };
        for _ in 0..3 {
            trainer.train_step(&batch);
        }
        let stepped = dir.path().join("stepped.bpk");
        trainer.net().save(&stepped).unwrap();
        assert!(
            tensors(&stepped)["blocks.2.second.norm.gamma"]
                .iter()
                .any(|&g| g != 0.0)
        );
    }

    /// A net saved when the encoding had one plane fewer grows to the encoding of now: the
    /// new plane (the one before the last, all-ones plane) is read by nothing, the others as
    /// before, so the grown net answers what the old one did.
    #[test]
    fn a_net_grown_to_a_new_input_plane_computes_what_it_grew_from() {
        let dir = tempfile::tempdir().unwrap();
        let (small, grown) = (dir.path().join("small.bpk"), dir.path().join("grown.bpk"));
        let now = NetShape::of::<TicTacToe>();
        let before = NetShape {
            planes: now.planes - 1,
            ..now.clone()
        };
        let config = NetConfig::new(1, 4).with_score_head(true);
        let old = ResNet::new(&before, &config, &Device::flex());
        save_model(&small, &old, &before, &config).unwrap();
        let info = grow_model(&small, 1, &now, &grown).unwrap();
        assert_eq!((info.shape.planes, info.config.blocks), (now.planes, 1));
        let old_net = Net::from_parts(old.valid(), before, config, Device::flex());
        let new_net = Net::load::<TicTacToe>(&grown, &Device::flex()).unwrap();
        let cells = now.height * now.width;
        let mut inputs = positions(9);
        for (i, position) in inputs.chunks_mut(now.planes * cells).enumerate() {
            // The new plane gets values the old net never saw: they must not matter.
            position[(now.planes - 2) * cells..][..cells].fill(i as f32 - 3.5);
        }
        let old_inputs: Vec<f32> = inputs
            .chunks(cells)
            .enumerate()
            .filter(|(plane, _)| plane % now.planes != now.planes - 2)
            .flat_map(|(_, values)| values.iter().copied())
            .collect();
        assert_same_outputs(
            old_net.evaluate(&old_inputs, 9),
            new_net.evaluate(&inputs, 9),
        );
    }

    #[test]
    fn growing_to_no_more_blocks_is_refused_and_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let (small, out) = (dir.path().join("small.bpk"), dir.path().join("out.bpk"));
        Net::new::<TicTacToe>(&NetConfig::new(2, 4), &Device::flex())
            .save(&small)
            .unwrap();
        let err = grow_model(&small, 2, &NetShape::of::<TicTacToe>(), &out)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("small.bpk")
                && err.contains("fewer blocks than 2")
                && err.contains("holds 2 blocks"),
            "{err}"
        );
        assert!(!out.exists());
    }

    #[test]
    fn averaging_networks_of_different_sizes_is_refused_naming_the_odd_file() {
        let dir = tempfile::tempdir().unwrap();
        let (small, wide) = (dir.path().join("small.bpk"), dir.path().join("wide.bpk"));
        Net::new::<TicTacToe>(&NetConfig::new(1, 4), &Device::flex())
            .save(&small)
            .unwrap();
        Net::new::<TicTacToe>(&NetConfig::new(1, 8), &Device::flex())
            .save(&wide)
            .unwrap();
        let out = dir.path().join("mean.bpk");
        let err = average_models(&[&small, &wide], &out)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("wide.bpk") && err.contains("wrong model"),
            "{err}"
        );
        assert!(!out.exists(), "nothing is written when a file is refused");
        let none = average_models(&[], &out).unwrap_err().to_string();
        assert!(none.contains("no model files"), "{none}");
    }
}
