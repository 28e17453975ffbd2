//! [`NetAgent`]: a trained model with search as an [`Agent`], the
//! `net:path=FILE,sims=N|ms=M[,search=S,engine=E,rollouts=R,mix=W,score=U,...]` spec.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use oxo_agents::{Agent, AgentSpec, SpecError};
use oxo_engine::{Engine, EngineKind, EngineModel};
use oxo_nn::{Device, Encode, Net};
use oxo_play::value::VALUE_PARAMS;
use oxo_rules::{Action, ActionList, DrawValue, Game};
use oxo_search::BatchedSearch;
use rand::SeedableRng;
use rand::rngs::SmallRng;

use oxo_play::NET_KIND;
use oxo_play::NetValue;
use oxo_play::play_search::{Budget, INITIAL_SIMULATION_RATE, PlaySearch, SEARCH_PARAMS};

use crate::evaluator::net_evaluator;
use crate::model::{MAX_GRAPH_BYTES, ModelFile, model_json_path, spec_model};

/// The parameters a `net:` spec takes besides the search's ([`SEARCH_PARAMS`]) and the
/// value's ([`VALUE_PARAMS`]): the model's, the engine's, the seed, and `bare=1`, which
/// plays a model file without a `model.json` on the spec's settings and oxo's defaults.
pub const NET_PARAMS: &[&str] = &["path", "engine", "onnx", "seed", "bare"];

/// Plays with a model file and a deterministic search (Gumbel by default, or PUCT; no root
/// noise) on a budget of simulations or time (a [`PlaySearch`]), a few leaves per network
/// call, valuing positions as the spec asks (a score utility, random playouts: a
/// [`NetValue`], as the run that trained it did). The net runs on its own one-thread
/// [`Engine`].
pub struct NetAgent<G: Game> {
    engine: Engine,
    settings: PlaySearch,
    search: BatchedSearch<G>,
    /// Simulations per second of the last timed searches (Gumbel sizes its budget by it).
    simulation_rate: f64,
    /// How the net's outputs become values (score utility, playouts, a draw's worth).
    value: NetValue,
    /// Draws the playouts' moves; seeded by the spec's `seed`.
    rng: SmallRng,
    name: String,
    evaluations: u64,
    /// The model file, graph and engine this agent plays with ([`Agent::plays_with`] adds
    /// the search and value settings it resolved to).
    plays_with: String,
}

impl<G: Encode> NetAgent<G> {
    /// Loads `model` (a model or checkpoint of variant `G`) to search as `settings` says on
    /// `engine` (or, with `onnx`, on onnxruntime running that ONNX file of the same net;
    /// without it, on onnxruntime, the graph the model's `model.json` records,
    /// [`ModelFile::recorded_graph`], if any); `name` is its display name. An error in words
    /// for a file that cannot be loaded.
    pub fn load(
        model: &ModelFile,
        engine: EngineKind,
        onnx: Option<&Path>,
        settings: PlaySearch,
        name: &str,
    ) -> Result<NetAgent<G>, String> {
        let graph = match onnx {
            Some(file) => Some((format!("onnx={}", file.display()), read_onnx(file)?)),
            None => recorded_graph_for(model, engine)?,
        };
        let path = &model.path;
        let net = Net::load::<G>(path, &Device::flex()).map_err(|e| e.to_string())?;
        let graph_played = match &graph {
            Some((label, bytes)) => format!("{label} (CRC-32 {:08x})", crc32fast::hash(bytes)),
            None => "its own export".to_string(),
        };
        let engine_model = match graph {
            None => EngineModel::new(&net, engine),
            Some((label, bytes)) => {
                EngineModel::with_onnx(&net, bytes).map_err(|e| format!("{label}: {e}"))?
            }
        };
        let plays_with = match engine_model.kind() {
            EngineKind::Burn => format!("model {} on burn", path.display()),
            kind => format!(
                "model {}, graph {graph_played}, on {}",
                path.display(),
                oxo_engine::describe(kind)
            ),
        };
        Ok(NetAgent::new(
            engine_model.open(1),
            settings,
            name,
            plays_with,
        ))
    }

    /// An agent over a net's engine, without playouts; `plays_with` says what it plays with
    /// for result files ([`Agent::plays_with`]: the model file, the graph and the engine).
    pub fn new(
        engine: Engine,
        settings: PlaySearch,
        name: &str,
        plays_with: String,
    ) -> NetAgent<G> {
        NetAgent {
            engine,
            settings,
            search: BatchedSearch::new(settings.config(settings.max_simulations()), &[0]),
            simulation_rate: INITIAL_SIMULATION_RATE,
            value: NetValue::PLAIN,
            rng: SmallRng::seed_from_u64(0),
            name: name.to_string(),
            evaluations: 0,
            plays_with,
        }
    }

    /// The same agent valuing positions by `value`, its playouts drawn from `seed`.
    pub fn with_value(mut self, value: NetValue, seed: u64) -> NetAgent<G> {
        self.value = value;
        self.rng = SmallRng::seed_from_u64(seed);
        self
    }

    /// Before a timed Gumbel search: sequential halving needs its budget up front, so it gets
    /// the simulations that the last searches' speed says fit in `ms` (at most `cap`); the
    /// deadline still ends it should it run late. PUCT simply runs to the deadline.
    fn fit_gumbel_to_time(&mut self) {
        let Some(sims) = self.settings.timed_gumbel_simulations(self.simulation_rate) else {
            return;
        };
        if self.search.config().simulations != sims {
            self.search = BatchedSearch::new(self.settings.config(sims), &[0]);
        }
    }

    /// Roots the search at `game`. When `game` is the position after this agent's last move
    /// (the search's last result, from its root), or follows it by one move (the opponent's
    /// reply), the search goes down the tree to it and, with PUCT, keeps that subtree's
    /// visits, as a player thinks on from the last move (unless the spec says `reuse=0`;
    /// Gumbel starts afresh: see [`BatchedSearch::advance`]). Any other position (a new
    /// game, an undo) gets a new tree, and so does the other side's move where a draw is
    /// worth something: the tree's draws were valued for the side to move at its root. The
    /// tree values draws as `draw` says from here on.
    fn move_root_to(&mut self, game: &G, draw: DrawValue) {
        let last = self.search.root(0).zip(self.search.result(0));
        let kept = last
            .filter(|(root, _)| draw.value == 0.0 || root.to_move() == draw.side)
            .and_then(|(root, last)| moves_to(root, last.action, game));
        self.search.set_draw_value(0, draw);
        match kept {
            Some((ours, reply)) => {
                self.search.advance(0, ours);
                if let Some(reply) = reply {
                    self.search.advance(0, reply);
                }
            }
            None => self.search.set_root(0, *game),
        }
    }

    /// Builds the agent a
    /// `net:path=FILE[,sims=N,ms=M,search=S,...,engine=E,onnx=F,rollouts=R,mix=W,playout=P,score=U,seed=S,bare=1]`
    /// spec names. What the spec leaves out is the model's own: the `play` settings of its
    /// `model.json` ([`PlaySearch::from_spec_over`], [`NetValue::from_spec_over`]), so
    /// `net:ms=500` plays the shipped model as its `model.json` says but for the time. A
    /// model file without a `model.json` plays only with `bare=1`, on the spec's settings
    /// and oxo's defaults ([`Agent::plays_with`] says which). `engine`: `onnxruntime`, the
    /// default, or `burn`; `onnx`: an ONNX file of the same net for onnxruntime to run,
    /// such as its int8 quantization, in place of the graph the `model.json` records or else
    /// the net's own export; `playout`: `uniform` or `tactical`. An error in words: a bad
    /// parameter, or a model that cannot be loaded for this variant.
    pub fn from_spec(spec: &AgentSpec) -> Result<NetAgent<G>, String> {
        let lists = [NET_PARAMS, VALUE_PARAMS, SEARCH_PARAMS];
        let known = |key: &&String| lists.iter().any(|list| list.contains(&key.as_str()));
        if let Some(param) = spec.params.keys().find(|key| !known(key)) {
            return Err(format!(
                "agent 'net' has no parameter '{param}': it takes {}",
                lists.concat().join(", ")
            ));
        }
        let path = spec_model(spec, G::NAME).ok_or_else(|| {
            format!(
                "agent 'net' needs path=FILE (no model ships for {} in models/{}/model.bpk), \
                 e.g. net:path=runs/{}/models/best.bpk",
                G::NAME,
                G::NAME,
                G::NAME
            )
        })?;
        let model = ModelFile::open::<G>(&path)?;
        let bare = match spec.params.get("bare").map(String::as_str) {
            None => false,
            Some("1") => true,
            Some(other) => {
                return Err(format!(
                    "agent 'net': bare={other}: give bare=1 (play a file without model.json) \
                     or leave it out"
                ));
            }
        };
        let (settings, value) = match (model.play(), bare) {
            (Some(play), _) => (
                PlaySearch::from_spec_over(spec, &play.search)?,
                NetValue::from_spec_over(spec, play.value()?)?,
            ),
            (None, true) => (PlaySearch::from_spec(spec)?, NetValue::from_spec(spec)?),
            (None, false) => return Err(bare_refusal(&path)),
        };
        let engine = spec
            .param("engine", EngineKind::default(), oxo_engine::ENGINE_NAMES)
            .map_err(|e| e.to_string())?;
        let seed = spec
            .param("seed", 0u64, "a number, e.g. 1")
            .map_err(|e| e.to_string())?;
        let onnx = spec.params.get("onnx").map(PathBuf::from);
        if onnx.is_some() && engine != EngineKind::Onnxruntime {
            return Err("agent 'net': onnx=FILE runs on onnxruntime: leave engine out".into());
        }
        let agent = NetAgent::load(&model, engine, onnx.as_deref(), settings, &spec.text)?;
        Ok(agent.with_value(value, seed))
    }
}

/// Why a model file without a `model.json` is not played unasked, and what to do.
fn bare_refusal(path: &Path) -> String {
    format!(
        "{}: no {} beside it, so nothing says how this net plays (an exported model has one; \
         a run writes one in its models/ directory): export it with `oxo export --model {} \
         --out DIR`, or add bare=1 to play it on the spec's settings and oxo's defaults",
        path.display(),
        model_json_path(path).display(),
        path.display()
    )
}

impl<G: Encode> Agent<G> for NetAgent<G> {
    fn choose(&mut self, game: &G) -> Action {
        let start = Instant::now();
        self.fit_gumbel_to_time();
        let draw = self.value.draw_for(game.to_move());
        self.move_root_to(game, draw);
        let mut evaluator = net_evaluator(&self.value, draw, Some(&mut self.engine), &mut self.rng);
        match self.settings.budget {
            Budget::Simulations(_) => self.search.run(&mut evaluator),
            Budget::Millis { ms, .. } => {
                let deadline = start + Duration::from_millis(u64::from(ms));
                self.search
                    .run_until(&mut evaluator, &mut || Instant::now() >= deadline);
            }
        }
        self.evaluations += evaluator.inner.positions;
        let result = self.search.result(0).expect("searched");
        let elapsed = start.elapsed().as_secs_f64();
        let done: u32 = result.visit_counts.iter().sum();
        if elapsed > 0.0 && done > 0 {
            self.simulation_rate = f64::from(done) / elapsed;
        }
        result.action
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn nodes_searched(&self) -> u64 {
        self.evaluations
    }

    fn plays_with(&self) -> Option<String> {
        Some(format!(
            "net:{}{}; {}",
            self.settings.spec_params(),
            self.value.spec_params(),
            self.plays_with
        ))
    }
}

/// The moves from `root` to `game` when `game` is the position after `ours` or one move
/// after it: `ours`, then that reply if there is one; `None` for any other position.
fn moves_to<G: Game>(root: &G, ours: Action, game: &G) -> Option<(Action, Option<Action>)> {
    let mut after = *root;
    after.play(ours);
    if after == *game {
        return Some((ours, None));
    }
    let mut replies = ActionList::new();
    if !after.is_over() {
        after.legal_actions(&mut replies);
    }
    let reply = replies.iter().copied().find(|&reply| {
        let mut next = after;
        next.play(reply);
        next == *game
    })?;
    Some((ours, Some(reply)))
}

/// The graph `model` records for onnxruntime ([`ModelFile::recorded_graph`]), labelled for
/// messages, where the agent runs on onnxruntime on the CPU and the library loads; `None`
/// on burn and on the GPU, which play the net's own export.
fn recorded_graph_for(
    model: &ModelFile,
    engine: EngineKind,
) -> Result<Option<(String, Vec<u8>)>, String> {
    if oxo_engine::resolve(engine) != EngineKind::Onnxruntime {
        return Ok(None);
    }
    Ok(model
        .recorded_graph()?
        .map(|(file, bytes)| (file.display().to_string(), bytes)))
}

/// The bytes of the ONNX file `onnx=` names, read with a size bound; an error in words.
fn read_onnx(path: &Path) -> Result<Vec<u8>, String> {
    oxo_nn::read_bounded(path, MAX_GRAPH_BYTES).map_err(|e| format!("onnx={}: {e}", path.display()))
}

/// Builds any agent: a `net:` spec as a [`NetAgent`], anything else through
/// [`oxo_agents::build_agent`]. This is the factory the CLI and the arena use.
pub fn build_any_agent<G: Encode + oxo_agents::Evaluate>(
    spec: &AgentSpec,
) -> Result<Box<dyn Agent<G>>, SpecError> {
    if spec.kind == NET_KIND {
        return NetAgent::<G>::from_spec(spec)
            .map(|a| Box::new(a) as Box<dyn Agent<G>>)
            .map_err(SpecError::Refused);
    }
    oxo_agents::build_agent::<G>(spec)
}

#[cfg(test)]
mod tests {
    use super::*;
    use oxo_rules::PlayoutPolicy;
    use oxo_search::{RolloutConfig, Scheme};
    use oxo_variants::tictactoe::TicTacToe;
    use oxo_variants::ultimate::Ultimate;

    use oxo_play::play_search::{MAX_TIMED_SIMS, MIN_TIMED_SIMS};

    use crate::model::shipped_model;

    fn build(spec: &str) -> Result<NetAgent<TicTacToe>, String> {
        NetAgent::from_spec(&spec.parse().expect("a well-formed spec"))
    }

    /// The spec's value parameters reach the agent (checked by [`NetValue::from_spec`]), and
    /// the agent plays legal moves with them.
    #[test]
    fn value_parameters_are_checked_and_used() {
        let err = build("net:sims=8,bogus=1")
            .err()
            .expect("no such parameter");
        for named in ["'bogus'", "path", "score", "playout", "sims", "reuse"] {
            assert!(err.contains(named), "{named}: {err}");
        }
        let err = build("net:sims=8,mix=1.5").err().expect("mix above 1");
        assert!(err.contains("mix must lie in 0..=1"), "{err}");
        let spec = "net:sims=8,rollouts=4,mix=0.5,playout=tactical,score=0.5,draw=-0.2,seed=3";
        let mut agent = build(spec).expect("the shipped model");
        let expected = NetValue {
            score_utility: 0.5,
            rollouts: RolloutConfig {
                playouts: 4,
                weight: 0.5,
                policy: PlayoutPolicy::Tactical,
            },
            draw: -0.2,
        };
        assert_eq!(agent.value, expected);
        let game = TicTacToe::default();
        assert!(game.is_legal(agent.choose(&game)));
    }

    /// A spec without value parameters plays the model with the value its `model.json`
    /// records (ultimate's: random playouts), one that names a part changes only that part.
    #[test]
    fn value_parameters_default_to_the_models_recorded_value() {
        let model = ModelFile::open::<Ultimate>(&shipped_model("ultimate").unwrap()).unwrap();
        let recorded = model.play().unwrap().value().unwrap();
        assert!(
            recorded.rollouts.is_on(),
            "ultimate's model.json records playouts"
        );
        let build = |spec: &str| {
            NetAgent::<Ultimate>::from_spec(&spec.parse().expect("a spec")).expect(spec)
        };
        assert_eq!(build("net:sims=8").value, recorded);
        let without = build("net:sims=8,rollouts=0").value;
        assert!(!without.rollouts.is_on());
        assert_eq!(without.score_utility, recorded.score_utility);
    }

    /// `engine` picks the engine, `onnx` another graph of the net; bad ones are refused in
    /// words.
    #[test]
    fn engine_and_onnx_are_checked() {
        let err = build("net:sims=8,engine=tract")
            .err()
            .expect("no such engine");
        assert!(err.contains("onnxruntime, burn"), "{err}");
        let mut agent = build("net:sims=8,engine=burn").expect("the shipped model");
        assert_eq!(agent.engine.kind(), EngineKind::Burn);
        let game = TicTacToe::default();
        assert!(game.is_legal(agent.choose(&game)));
        let err = build("net:sims=8,engine=burn,onnx=x.onnx")
            .err()
            .expect("burn");
        assert!(err.contains("onnx=FILE runs on onnxruntime"), "{err}");
        let err = build("net:sims=8,onnx=/nonexistent.onnx")
            .err()
            .expect("missing");
        assert!(err.contains("onnx=/nonexistent.onnx"), "{err}");
        // Another variant's net has the same names, other shapes.
        let ultimate = shipped_model("ultimate")
            .unwrap()
            .with_file_name("model.onnx");
        let err = build(&format!("net:sims=8,onnx={}", ultimate.display()))
            .err()
            .expect("ultimate's graph");
        assert!(err.contains("are not this net's"), "{err}");
        let dir = tempfile::tempdir().unwrap();
        let garbage = dir.path().join("garbage.onnx");
        std::fs::write(&garbage, b"not a model").unwrap();
        let err = build(&format!("net:sims=8,onnx={}", garbage.display()))
            .err()
            .expect("garbage");
        assert!(err.contains("onnxruntime"), "{err}");
        // The int8 graph of the shipped ultimate net plays.
        let int8 = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ultimate-int8.onnx");
        let spec = format!("net:sims=8,onnx={}", int8.display());
        let mut agent = NetAgent::<Ultimate>::from_spec(&spec.parse().unwrap()).expect("int8");
        assert_eq!(agent.engine.kind(), EngineKind::Onnxruntime);
        let game = Ultimate::new();
        assert!(game.is_legal(agent.choose(&game)));
    }

    /// A copy of the shipped ultimate model in a new directory whose `model.json` records
    /// `graph` (written as `model-int8.onnx`) with the CRC-32 `crc` (that of `graph` if
    /// `None`), or no graph file at all where `graph` is `None`.
    fn model_recording(graph: Option<&[u8]>, crc: Option<u32>) -> tempfile::TempDir {
        let crc = crc.unwrap_or_else(|| crc32fast::hash(graph.unwrap_or_default()));
        let dir = crate::model::tests::edited_copy(|mut description| {
            description["play"]["onnx"] = "model-int8.onnx".into();
            description["play"]["onnx_crc32"] = format!("{crc:08x}").into();
            Some(description.to_string())
        });
        if let Some(graph) = graph {
            std::fs::write(dir.path().join("model-int8.onnx"), graph).unwrap();
        }
        dir
    }

    /// The graph a model's `model.json` records is what onnxruntime runs (a recorded file
    /// that is no model fails to load, on onnxruntime only), and a missing or damaged one is
    /// refused by name rather than replaced by the net's own export.
    #[test]
    fn a_recorded_graph_is_played_and_checked() {
        let fixture =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ultimate-int8.onnx");
        let int8 = std::fs::read(fixture).unwrap();
        let build = |dir: &tempfile::TempDir, extra: &str| {
            let model = dir.path().join("model.bpk");
            let spec = format!("net:sims=8,path={}{extra}", model.display());
            NetAgent::<Ultimate>::from_spec(&spec.parse().unwrap())
        };
        let good = model_recording(Some(&int8), None);
        let mut agent = build(&good, "").expect("the recorded int8 graph");
        let game = Ultimate::new();
        assert!(game.is_legal(agent.choose(&game)));
        let plays_with = agent.plays_with().unwrap();
        let graph = format!("model-int8.onnx (CRC-32 {:08x})", crc32fast::hash(&int8));
        assert!(
            plays_with.contains(&graph) && plays_with.contains("on onnxruntime"),
            "{plays_with}"
        );

        let garbage = model_recording(Some(b"not a model"), None);
        let burn = build(&garbage, ",engine=burn").expect("burn plays the net itself");
        let plays_with = burn.plays_with().unwrap();
        assert!(
            plays_with.ends_with("model.bpk on burn") && !plays_with.contains("onnx"),
            "{plays_with}"
        );
        let damaged = model_recording(Some(&int8), Some(crc32fast::hash(&int8) ^ 1));
        let missing = model_recording(None, None);
        for (dir, says) in [
            (garbage, "onnxruntime"),
            (damaged, "CRC-32"),
            (missing, "model.json"),
        ] {
            let Err(err) = build(&dir, "") else {
                panic!("{says}: loaded")
            };
            assert!(
                err.contains("model-int8.onnx") && err.contains(says),
                "{err}"
            );
            assert!(
                !err.contains("  "),
                "one sentence, no source indentation: {err}"
            );
        }
    }

    /// A recorded graph is a file beside `model.json`, never a path elsewhere.
    #[test]
    fn a_recorded_graph_outside_the_model_directory_is_refused() {
        let dir = crate::model::tests::edited_copy(|mut description| {
            description["play"]["onnx"] = "../x.onnx".into();
            description["play"]["onnx_crc32"] = "00000000".into();
            Some(description.to_string())
        });
        let err = ModelFile::open::<Ultimate>(&dir.path().join("model.bpk")).expect_err("a path");
        assert!(err.contains("must be a file name"), "{err}");
    }

    /// A model file without `model.json` (an export whose `model.json` was deleted) is
    /// refused by name with what to do; with `bare=1` it plays the spec's settings and says
    /// so in full.
    #[test]
    fn a_bare_model_file_plays_only_when_asked() {
        let dir = crate::model::tests::edited_copy(|_| None);
        let model = dir.path().join("model.bpk");
        let spec = |extra: &str| format!("net:ms=50,path={}{extra}", model.display());
        let err = NetAgent::<Ultimate>::from_spec(&spec("").parse().unwrap())
            .err()
            .expect("no model.json");
        assert!(
            err.contains("model.json") && err.contains("bare=1") && err.contains("oxo export"),
            "{err}"
        );
        let err = NetAgent::<Ultimate>::from_spec(&spec(",bare=yes").parse().unwrap())
            .err()
            .expect("bare=yes");
        assert!(err.contains("bare=1"), "{err}");
        let agent = NetAgent::<Ultimate>::from_spec(&spec(",bare=1").parse().unwrap()).unwrap();
        let setting = agent.plays_with().unwrap();
        assert!(
            setting.starts_with("net:search=gumbel,") && setting.contains("ms=50"),
            "{setting}"
        );
        assert_eq!(agent.value, NetValue::PLAIN);
    }

    /// A model path that is a device is refused by name at once, not read without end.
    #[test]
    fn a_device_as_model_file_is_refused() {
        let err = build("net:sims=8,path=/dev/zero").err().expect("/dev/zero");
        assert!(
            err.contains("/dev/zero") && err.contains("not a regular file"),
            "{err}"
        );
    }

    /// `ms` ends each search at its deadline: PUCT with an out-of-reach cap answers after
    /// fewer simulations than the cap; Gumbel sizes its next budget by the speed it measured.
    #[test]
    fn a_time_budget_ends_the_search() {
        let game = Ultimate::new();
        let spec = "net:ms=30,search=puct".parse().unwrap();
        let mut puct = NetAgent::<Ultimate>::from_spec(&spec).expect("the shipped model");
        assert!(game.is_legal(puct.choose(&game)));
        let visits: u32 = puct.search.result(0).unwrap().visit_counts.iter().sum();
        assert!((1..MAX_TIMED_SIMS).contains(&visits), "{visits}");
        let spec = "net:ms=30,search=gumbel".parse().unwrap();
        let mut gumbel = NetAgent::<Ultimate>::from_spec(&spec).expect("the shipped model");
        for _ in 0..2 {
            assert!(game.is_legal(gumbel.choose(&game)));
        }
        assert_ne!(gumbel.simulation_rate, INITIAL_SIMULATION_RATE);
        let sims = gumbel.search.config().simulations;
        assert!((MIN_TIMED_SIMS..MAX_TIMED_SIMS).contains(&sims), "{sims}");
    }

    /// A net spec the agent refuses is reported once, in the agent's words: the factory
    /// does not wrap the message in a second "bad value" around it.
    #[test]
    fn a_refused_net_spec_is_said_once() {
        let spec = "net:sims=8,rollouts=-1".parse().unwrap();
        let Err(err) = build_any_agent::<TicTacToe>(&spec) else {
            panic!("rollouts=-1 is refused")
        };
        let message = err.to_string();
        assert!(message.contains("rollouts"), "{message}");
        assert!(!message.contains("bad value 'bad value"), "{message}");
        assert!(!message.contains("a valid net:path"), "{message}");
    }

    /// A spec means what it says: what `net:ms=500` leaves out is the shipped model's own
    /// (`play` of its `model.json`: PUCT, its playouts), and the agent says so in full.
    #[test]
    fn a_bare_time_plays_the_models_own_search() {
        let spec = "net:ms=500".parse().unwrap();
        let agent = NetAgent::<Ultimate>::from_spec(&spec).expect("the shipped model");
        assert_eq!(agent.settings.scheme, oxo_play::SchemeName::Puct);
        let setting = agent.plays_with().unwrap();
        assert!(
            setting.starts_with("net:search=puct,") && setting.contains(",ms=500,"),
            "{setting}"
        );
        assert!(setting.contains(",rollouts=16,mix=0.5;"), "{setting}");
    }

    /// A PUCT agent searches on from the tree of its last move: after its move and a reply
    /// it evaluates fewer positions than a fresh search of the same budget would (the same
    /// number with `reuse=0`), and a position that does not follow (a new game) gets a new
    /// tree.
    #[test]
    fn puct_keeps_the_subtree_of_the_moves_played() {
        let spec = "net:sims=200,search=puct";
        let searched = |agent: &mut NetAgent<TicTacToe>, game: &TicTacToe| {
            let before = agent.nodes_searched();
            assert!(game.is_legal(agent.choose(game)));
            agent.nodes_searched() - before
        };
        for (reuse, kept) in [("", true), (",reuse=0", false)] {
            let mut agent = build(&format!("{spec}{reuse}")).expect("the shipped model");
            let mut game = TicTacToe::default();
            game.play(agent.choose(&game));
            game.play(build(spec).unwrap().choose(&game));
            let after_reply = searched(&mut agent, &game);
            let fresh = searched(&mut build(spec).unwrap(), &game);
            assert_eq!(
                after_reply < fresh,
                kept,
                "{reuse}: {after_reply} vs {fresh}"
            );
            let new_game = searched(&mut agent, &TicTacToe::default());
            let first = searched(&mut build(spec).unwrap(), &TicTacToe::default());
            assert_eq!(new_game, first, "{reuse}");
        }
    }

    /// A draw's worth depends on who searches, so an agent with a draw value asked to move
    /// for the other side (after its own move, as when it plays both) searches a new tree:
    /// as many evaluations as a new agent's. Without one it searches on in the old tree.
    #[test]
    fn the_other_side_to_move_gets_a_new_tree_where_draws_are_worth_something() {
        let searched = |agent: &mut NetAgent<TicTacToe>, game: &TicTacToe| {
            let before = agent.nodes_searched();
            assert!(game.is_legal(agent.choose(game)));
            agent.nodes_searched() - before
        };
        for (spec, new_tree) in [
            ("net:sims=200,search=puct,draw=-0.3", true),
            ("net:sims=200,search=puct", false),
        ] {
            let mut agent = build(spec).expect("the shipped model");
            let mut game = TicTacToe::default();
            game.play(agent.choose(&game));
            let other_side = searched(&mut agent, &game);
            let fresh = searched(&mut build(spec).unwrap(), &game);
            assert_eq!(
                other_side == fresh,
                new_tree,
                "{spec}: {other_side} vs {fresh}"
            );
        }
    }

    /// `search` picks the scheme (tests/shipped.rs checks that PUCT plays perfectly); an
    /// unknown one is refused in words.
    #[test]
    fn search_scheme_is_selectable() {
        let err = build("net:sims=8,search=minimax")
            .err()
            .expect("no such scheme");
        assert!(err.contains("gumbel or puct"), "{err}");
        let mut agent = build("net:sims=8,search=puct").expect("the shipped model");
        assert!(matches!(agent.search.config().scheme, Scheme::Puct(_)));
        let game = TicTacToe::default();
        assert!(game.is_legal(agent.choose(&game)));
    }
}
