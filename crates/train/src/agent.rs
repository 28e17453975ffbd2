//! [`NetAgent`]: a trained model with search as an [`Agent`], the
//! `net:path=FILE,sims=N[,rollouts=R,mix=W]` spec.

use std::path::{Path, PathBuf};

use oxo_agents::{Agent, AgentSpec, SpecError};
use oxo_nn::{Device, Encode, Net};
use oxo_rules::{Action, Game, PlayoutPolicy};
use oxo_search::{BatchedSearch, RolloutConfig, RolloutEvaluator};
use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::config::play_search;
use crate::selfplay::NetEvaluator;

/// The spec kind of [`NetAgent`].
pub const NET_KIND: &str = "net";

/// The parameters a `net:` spec takes.
pub const NET_PARAMS: &[&str] = &[
    "path", "sims", "leaves", "rollouts", "mix", "playout", "score", "seed",
];

/// Plays with a model file and a deterministic Gumbel search (no root noise) of `sims`
/// simulations, a few leaves per network call, optionally with random playouts mixed into
/// the net's values (as the run that trained it did, if it used `selfplay.rollouts`).
pub struct NetAgent<G: Game> {
    net: Net,
    search: BatchedSearch<G>,
    rollouts: RolloutConfig,
    /// The score head's share of each value ([`NetEvaluator::with_score_utility`]).
    score_utility: f32,
    /// Draws the playouts' moves; seeded by the spec's `seed`.
    rng: SmallRng,
    name: String,
    evaluations: u64,
}

impl<G: Encode> NetAgent<G> {
    /// Loads the model at `path` (a model or checkpoint of variant `G`) to search with `sims`
    /// simulations and `leaves` leaves per network call; `name` is its display name.
    pub fn load(
        path: &Path,
        sims: u32,
        leaves: u32,
        name: &str,
    ) -> Result<NetAgent<G>, oxo_nn::NnError> {
        let net = Net::load::<G>(path, &Device::flex())?;
        Ok(NetAgent::new(net, sims, leaves, name))
    }

    /// An agent over an already loaded net, without playouts.
    pub fn new(net: Net, sims: u32, leaves: u32, name: &str) -> NetAgent<G> {
        NetAgent {
            net,
            search: BatchedSearch::new(play_search(sims.max(1), leaves.max(1)), &[0]),
            rollouts: RolloutConfig::OFF,
            score_utility: 0.0,
            rng: SmallRng::seed_from_u64(0),
            name: name.to_string(),
            evaluations: 0,
        }
    }

    /// The same agent with `rollouts` mixed into its values, drawn from `seed`.
    pub fn with_rollouts(mut self, rollouts: RolloutConfig, seed: u64) -> NetAgent<G> {
        self.rollouts = rollouts;
        self.rng = SmallRng::seed_from_u64(seed);
        self
    }

    /// Builds the agent a `net:path=FILE,sims=N[,leaves=L,rollouts=R,mix=W,playout=P,seed=S]`
    /// spec names (`playout`: `uniform`, the default, or `tactical`); an error in words
    /// (a bad parameter, or a model that cannot be loaded for this variant).
    pub fn from_spec(spec: &AgentSpec) -> Result<NetAgent<G>, String> {
        spec.expect_params(NET_PARAMS).map_err(|e| e.to_string())?;
        let path = spec_model(spec, G::NAME).ok_or_else(|| {
            format!(
                "agent 'net' needs path=FILE (no model ships for {} in models/{}/model.bpk), \
                 e.g. net:path=runs/{}/models/best.bpk",
                G::NAME,
                G::NAME,
                G::NAME
            )
        })?;
        let sims = spec
            .param("sims", 64u32, "a number of simulations, e.g. 64")
            .map_err(|e| e.to_string())?;
        let leaves = spec
            .param("leaves", 4u32, "leaves per network call, e.g. 4")
            .map_err(|e| e.to_string())?;
        if sims == 0 || leaves == 0 {
            return Err("agent 'net': sims and leaves must be at least 1".into());
        }
        let rollouts = RolloutConfig {
            playouts: spec
                .param("rollouts", 0u32, "random playouts per evaluation, e.g. 8")
                .map_err(|e| e.to_string())?,
            weight: spec
                .param(
                    "mix",
                    0.5f32,
                    "the playouts' weight in a value, 0 to 1, e.g. 0.5",
                )
                .map_err(|e| e.to_string())?,
            policy: spec
                .param("playout", PlayoutPolicy::Uniform, "uniform or tactical")
                .map_err(|e| e.to_string())?,
        };
        if !(0.0..=1.0).contains(&rollouts.weight)
            || rollouts.playouts > RolloutConfig::MAX_PLAYOUTS
        {
            return Err(format!(
                "agent 'net': mix must lie in 0..=1 and rollouts in 0..={} (got mix={}, \
                 rollouts={})",
                RolloutConfig::MAX_PLAYOUTS,
                rollouts.weight,
                rollouts.playouts
            ));
        }
        let score_utility = spec
            .param(
                "score",
                0.0f32,
                "the score head's weight in a value, 0 to 1, e.g. 0.5",
            )
            .map_err(|e| e.to_string())?;
        if !(0.0..=1.0).contains(&score_utility) {
            return Err(format!(
                "agent 'net': score must lie in 0..=1 (got score={score_utility})"
            ));
        }
        let seed = spec
            .param("seed", 0u64, "a number, e.g. 1")
            .map_err(|e| e.to_string())?;
        let mut agent =
            NetAgent::load(&path, sims, leaves, &spec.text).map_err(|e| e.to_string())?;
        agent.score_utility = score_utility;
        Ok(agent.with_rollouts(rollouts, seed))
    }
}

impl<G: Encode> Agent<G> for NetAgent<G> {
    fn choose(&mut self, game: &G) -> Action {
        self.search.set_root(0, *game);
        let mut evaluator = RolloutEvaluator::new(
            NetEvaluator::new(Some(&self.net)).with_score_utility(self.score_utility),
            self.rollouts,
            &mut self.rng,
        );
        self.search.run(&mut evaluator);
        self.evaluations += evaluator.inner.positions;
        self.search.result(0).expect("searched").action
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn nodes_searched(&self) -> u64 {
        self.evaluations
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

/// The spec of the shipped model of `variant` with `sims` simulations, played as its run
/// trained it: with the random playouts its `model.json` asks for. `None` when no model
/// ships for `variant`.
pub fn shipped_agent(variant: &str, sims: u32) -> Option<String> {
    let model = shipped_model(variant)?;
    let description = model.with_file_name("model.json");
    let rollouts = crate::export::model_rollouts(&description);
    let score_utility = crate::export::model_score_utility(&description);
    Some(format!(
        "{NET_KIND}:sims={sims}{}{}",
        rollout_params(rollouts),
        score_param(score_utility)
    ))
}

/// The `net:` spec parameter that gives the score head `weight` in each value: `,score=W`,
/// or nothing when it is 0.
pub fn score_param(weight: f32) -> String {
    if weight > 0.0 {
        format!(",score={weight}")
    } else {
        String::new()
    }
}

/// The `net:` spec parameters that ask for `rollouts`: `,rollouts=R,mix=W` (and
/// `,playout=tactical` for tactical ones), or nothing when they are off.
pub fn rollout_params(rollouts: RolloutConfig) -> String {
    if !rollouts.is_on() {
        return String::new();
    }
    let mut params = format!(",rollouts={},mix={}", rollouts.playouts, rollouts.weight);
    if rollouts.policy != PlayoutPolicy::Uniform {
        params += &format!(",playout={}", rollouts.policy.name());
    }
    params
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

/// Builds any agent: a `net:` spec as a [`NetAgent`], anything else through
/// [`oxo_agents::build_agent`]. This is the factory the CLI and the arena use.
pub fn build_any_agent<G: Encode + oxo_agents::Evaluate>(
    spec: &AgentSpec,
) -> Result<Box<dyn Agent<G>>, SpecError> {
    if spec.kind == NET_KIND {
        return NetAgent::<G>::from_spec(spec)
            .map(|a| Box::new(a) as Box<dyn Agent<G>>)
            .map_err(|message| SpecError::BadValue {
                param: "net".into(),
                value: message,
                expected: "a valid net:path=FILE,sims=N spec with a model of this variant",
            });
    }
    oxo_agents::build_agent::<G>(spec)
}

#[cfg(test)]
mod tests {
    use super::*;
    use oxo_rules::tictactoe::TicTacToe;

    fn build(spec: &str) -> Result<NetAgent<TicTacToe>, String> {
        NetAgent::from_spec(&spec.parse().expect("a well-formed spec"))
    }

    #[test]
    fn playout_parameters_are_checked_and_used() {
        let err = build("net:sims=8,mix=1.5").err().expect("mix above 1");
        assert!(err.contains("mix must lie in 0..=1"), "{err}");
        let err = build("net:sims=8,rollouts=many")
            .err()
            .expect("not a number");
        assert!(err.contains("rollouts"), "{err}");
        let err = build("net:sims=8,rollouts=4,playout=smart")
            .err()
            .expect("no such policy");
        assert!(err.contains("uniform or tactical"), "{err}");
        let spec = "net:sims=8,rollouts=4,mix=0.5,playout=tactical,seed=3";
        let mut agent = build(spec).expect("the shipped model");
        let tactical = RolloutConfig {
            playouts: 4,
            weight: 0.5,
            policy: PlayoutPolicy::Tactical,
        };
        assert_eq!(agent.rollouts, tactical);
        assert_eq!(
            rollout_params(tactical),
            ",rollouts=4,mix=0.5,playout=tactical"
        );
        let game = TicTacToe::default();
        assert!(game.is_legal(agent.choose(&game)));
    }

    #[test]
    fn the_score_parameter_is_checked_and_used() {
        let err = build("net:sims=8,score=2").err().expect("score above 1");
        assert!(err.contains("score must lie in 0..=1"), "{err}");
        let agent = build("net:sims=8,score=0.5").expect("the shipped model");
        assert_eq!(agent.score_utility, 0.5);
        assert_eq!(score_param(0.5), ",score=0.5");
        assert_eq!(score_param(0.0), "");
    }
}
