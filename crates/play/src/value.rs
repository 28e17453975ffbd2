//! [`NetValue`]: how a net's outputs become the values a search backs up, that is the
//! score head's share and the random playouts mixed in. A run's self-play, gate and rating
//! use its config's (`RunConfig::net_value` in `oxo-train`); the exported `model.json`
//! records it (`oxo_train::export::model_net_value`) and `net:` specs
//! name it (`score=U`, `rollouts=R,mix=W,playout=P`), so that a model is played the way its
//! run trained and gated it.

use oxo_agents::AgentSpec;
use oxo_rules::PlayoutPolicy;
use oxo_search::RolloutConfig;

/// How a net's evaluations are turned into search values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NetValue {
    /// The score head's share of each value ([`oxo_encode::search_value`]).
    pub score_utility: f32,
    /// The random playouts mixed into each value.
    pub rollouts: RolloutConfig,
}

impl NetValue {
    /// The net's win/draw/loss value alone.
    pub const PLAIN: NetValue = NetValue {
        score_utility: 0.0,
        rollouts: RolloutConfig::OFF,
    };

    /// The value a model's `model.json` asks for in its `play` object (`score_utility`,
    /// `rollouts`, `rollout_weight`, `rollout_policy`); the net's value alone where the
    /// object is missing, and for each setting missing from it.
    pub fn recorded(play: Option<&serde_json::Value>) -> NetValue {
        let field = |name: &str| play.and_then(|p| p.get(name)?.as_f64());
        let policy = play
            .and_then(|p| p.get("rollout_policy")?.as_str()?.parse().ok())
            .unwrap_or(PlayoutPolicy::Uniform);
        let rollouts = match (field("rollouts"), field("rollout_weight")) {
            (Some(playouts), Some(weight)) => RolloutConfig {
                playouts: playouts as u32,
                weight: weight as f32,
                policy,
            },
            _ => RolloutConfig::OFF,
        };
        NetValue {
            score_utility: field("score_utility").map_or(0.0, |weight| weight as f32),
            rollouts,
        }
    }

    /// The `net:` spec parameters that ask for this value: `,rollouts=R,mix=W` (with
    /// `,playout=tactical` for tactical playouts) and `,score=U`, each left out when off.
    pub fn spec_params(&self) -> String {
        let mut params = String::new();
        let rollouts = self.rollouts;
        if rollouts.is_on() {
            params += &format!(",rollouts={},mix={}", rollouts.playouts, rollouts.weight);
            if rollouts.policy != PlayoutPolicy::Uniform {
                params += &format!(",playout={}", rollouts.policy.name());
            }
        }
        if self.score_utility > 0.0 {
            params += &format!(",score={}", self.score_utility);
        }
        params
    }

    /// The value a `net:` spec asks for (its `rollouts`, `mix`, `playout` and `score`
    /// parameters; the net's value alone by default), or what is wrong with them in words.
    pub fn from_spec(spec: &AgentSpec) -> Result<NetValue, String> {
        let text = |e: oxo_agents::SpecError| e.to_string();
        let rollouts = RolloutConfig {
            playouts: spec
                .param("rollouts", 0u32, "random playouts per evaluation, e.g. 8")
                .map_err(text)?,
            weight: spec
                .param(
                    "mix",
                    0.5f32,
                    "the playouts' weight in a value, 0 to 1, e.g. 0.5",
                )
                .map_err(text)?,
            policy: spec
                .param("playout", PlayoutPolicy::Uniform, "uniform or tactical")
                .map_err(text)?,
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
            .map_err(text)?;
        if !(0.0..=1.0).contains(&score_utility) {
            return Err(format!(
                "agent 'net': score must lie in 0..=1 (got score={score_utility})"
            ));
        }
        Ok(NetValue {
            score_utility,
            rollouts,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value_of(spec: &str) -> Result<NetValue, String> {
        NetValue::from_spec(&spec.parse().expect("a spec"))
    }

    /// Parameters parse into the value they name, bad ones are refused in words, and
    /// `spec_params` writes back exactly what parses into the same value.
    #[test]
    fn spec_parameters_round_trip_and_are_checked() {
        let plain = value_of("net:sims=8").expect("valid");
        assert!(plain.score_utility == 0.0 && !plain.rollouts.is_on());
        assert_eq!(plain.spec_params(), "");
        let value =
            value_of("net:sims=8,rollouts=4,mix=0.25,playout=tactical,score=0.5").expect("valid");
        let expected = NetValue {
            score_utility: 0.5,
            rollouts: RolloutConfig {
                playouts: 4,
                weight: 0.25,
                policy: PlayoutPolicy::Tactical,
            },
        };
        assert_eq!(value, expected);
        let params = value.spec_params();
        assert_eq!(params, ",rollouts=4,mix=0.25,playout=tactical,score=0.5");
        assert_eq!(value_of(&format!("net:sims=8{params}")), Ok(value));
        for (spec, message) in [
            ("net:score=2", "score must lie in 0..=1"),
            ("net:mix=1.5", "mix must lie in 0..=1"),
            ("net:rollouts=many", "rollouts"),
            ("net:rollouts=4,playout=smart", "uniform or tactical"),
        ] {
            let err = value_of(spec).expect_err(spec);
            assert!(err.contains(message), "{spec}: {err}");
        }
    }
}
