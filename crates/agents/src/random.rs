//! The `random` agent: uniform over legal moves, the Elo anchor of every rating.

use oxo_rules::{Action, Game};
use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::{Agent, AgentSpec, SpecError};

/// Plays a uniformly random legal move.
pub struct RandomAgent {
    rng: SmallRng,
    name: String,
}

impl RandomAgent {
    /// A random agent with its own seeded generator.
    pub fn new(seed: u64) -> Self {
        RandomAgent {
            rng: SmallRng::seed_from_u64(seed),
            name: format!("random:seed={seed}"),
        }
    }

    /// Builds from a spec: `random` or `random:seed=N` (default seed 0).
    pub fn from_spec(spec: &AgentSpec) -> Result<Self, SpecError> {
        spec.expect_params(&["seed"])?;
        let seed = spec.param("seed", 0u64, "a whole number")?;
        Ok(RandomAgent {
            name: spec.text.clone(),
            ..RandomAgent::new(seed)
        })
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    fn choose(&mut self, game: &G) -> Action {
        game.random_action(&mut self.rng)
    }

    fn name(&self) -> &str {
        &self.name
    }
}
