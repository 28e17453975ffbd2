//! A game in progress in a variant chosen at run time: the moves so far, undo, and the agent
//! that answers `genmove`. [`Session`] is object-safe so one engine can switch variants.

use std::path::PathBuf;

use oxo_agents::{Agent, AgentSpec, Evaluate, SpecError};
use oxo_engine::{Engine, EngineKind};
use oxo_nn::Encode;
use oxo_play::nn_eval_line;
use oxo_rules::{ActionList, Game, Outcome, Player};
use oxo_variants::{Variant, with_variant};

/// A game in progress, whatever its variant.
pub trait Session {
    /// The variant being played.
    fn variant(&self) -> Variant;
    /// The player to act, or `None` once the game is over.
    fn to_move(&self) -> Option<Player>;
    /// Plays a move given in the variant's notation; on failure nothing changes and the
    /// message names the move and what is wrong with it.
    fn play(&mut self, text: &str) -> Result<(), String>;
    /// Lets the agent choose a move for the side to move, plays it, and returns its notation.
    fn genmove(&mut self) -> Result<String, String>;
    /// Takes back the last move; false when there is none.
    fn undo(&mut self) -> bool;
    /// Starts a new game of the same variant.
    fn clear(&mut self);
    /// Every legal move, in action-index order, in the variant's notation.
    fn legal_moves(&self) -> Vec<String>;
    /// The outcome, once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// Scores or balances `[X, O]`, or `None` for variants without them.
    fn scores(&self) -> Option<[i32; 2]>;
    /// The position drawn as text, with coordinates.
    fn board(&self) -> String;
    /// The network's input for the position: one JSON array of floats, plane-major.
    fn nn_input(&self) -> String;
    /// The network's raw output for the position as one JSON line
    /// (`{"value": v, "wdl": [w, d, l], "policy": {"MOVE": p, ...}}`, plus `"score"` for nets
    /// with a score head). The network is the `net` agent's model on its engine, or else the
    /// variant's shipped model on the default engine.
    fn nn_eval(&mut self) -> Result<String, String>;
    /// The setting the agent resolved its spec to, where the spec does not say it all (a
    /// net's full search, value, model, graph and engine).
    fn agent_setting(&self) -> Option<String>;
}

/// The agent `play` and `gtp` use when none is given: the variant's shipped model with the
/// search and value its `model.json` records ([`oxo_player::shipped_agent`]), or `fallback`
/// when no model ships for it.
pub fn default_agent(variant: Variant, fallback: &str) -> AgentSpec {
    let text = oxo_player::shipped_agent(variant.name()).unwrap_or_else(|| fallback.to_string());
    text.parse().expect("default agent specs are valid")
}

/// Starts a session of `variant` whose `genmove` asks the agent `spec` names.
pub fn new_session(variant: Variant, spec: &AgentSpec) -> Result<Box<dyn Session>, SpecError> {
    with_variant!(variant, G => {
        let agent = oxo_player::build_any_agent::<G>(spec)?;
        let model = oxo_player::spec_model(spec, G::NAME)
            .or_else(|| oxo_player::shipped_model(G::NAME));
        let engine_kind = match spec.kind.as_str() {
            oxo_player::NET_KIND => spec.param("engine", EngineKind::default(), oxo_engine::ENGINE_NAMES)?,
            _ => EngineKind::default(),
        };
        Ok(Box::new(GameSession::<G> {
            variant,
            history: vec![G::new()],
            agent,
            model,
            engine_kind,
            engine: None,
        }))
    })
}

/// A session of one concrete variant: every position since the start, for undo; the model
/// `nn_eval` reads and the engine it runs on, loaded on first use.
struct GameSession<G: Game> {
    variant: Variant,
    history: Vec<G>,
    agent: Box<dyn Agent<G>>,
    model: Option<PathBuf>,
    engine_kind: EngineKind,
    engine: Option<Engine>,
}

impl<G: Game> GameSession<G> {
    fn current(&self) -> &G {
        self.history
            .last()
            .expect("history starts with the opening position")
    }
}

impl<G: Encode + Evaluate> Session for GameSession<G> {
    fn variant(&self) -> Variant {
        self.variant
    }

    fn agent_setting(&self) -> Option<String> {
        self.agent.plays_with()
    }

    fn to_move(&self) -> Option<Player> {
        let game = self.current();
        (!game.is_over()).then(|| game.to_move())
    }

    fn play(&mut self, text: &str) -> Result<(), String> {
        let action = G::parse_action(text).map_err(|e| e.to_string())?;
        let mut next = *self.current();
        next.try_play(action)
            .map_err(|why| format!("illegal move {}: {why}", G::format_action(action)))?;
        self.history.push(next);
        Ok(())
    }

    fn genmove(&mut self) -> Result<String, String> {
        let game = *self.current();
        if game.is_over() {
            return Err("the game is over".into());
        }
        let action = self.agent.choose(&game);
        let text = G::format_action(action);
        let mut next = game;
        next.try_play(action)
            .map_err(|why| format!("agent {} chose illegal {text}: {why}", self.agent.name()))?;
        self.history.push(next);
        Ok(text)
    }

    fn undo(&mut self) -> bool {
        if self.history.len() > 1 {
            self.history.pop();
            true
        } else {
            false
        }
    }

    fn clear(&mut self) {
        self.history.truncate(1);
    }

    fn legal_moves(&self) -> Vec<String> {
        let mut actions = ActionList::new();
        self.current().legal_actions(&mut actions);
        actions.iter().map(|&a| G::format_action(a)).collect()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.current().outcome()
    }

    fn scores(&self) -> Option<[i32; 2]> {
        self.current().scores()
    }

    fn board(&self) -> String {
        self.current().to_string()
    }

    fn nn_input(&self) -> String {
        let mut input = vec![0.0; G::INPUT_SIZE];
        self.current().encode(&mut input);
        serde_json::to_string(&input).expect("JSON of floats")
    }

    fn nn_eval(&mut self) -> Result<String, String> {
        if self.engine.is_none() {
            let path = self.model.as_ref().ok_or_else(|| {
                format!(
                    "no network: start with --agent net:path=FILE, or ship a model in models/{}/model.bpk",
                    G::NAME
                )
            })?;
            let model = oxo_player::ModelFile::open::<G>(path)?;
            self.engine = Some(model.net_engine::<G>(self.engine_kind)?);
        }
        let game = *self.current();
        let engine = self.engine.as_mut().expect("loaded above");
        let eval = engine.evaluate_position(&game);
        Ok(nn_eval_line::<G>(&eval))
    }
}
