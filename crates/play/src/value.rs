//! [`NetValue`]: how a net's outputs become the values a search backs up, that is the
//! score head's share and the random playouts mixed in. A run's self-play, gate and rating
//! use its config's (`RunConfig::net_value` in `oxo-train`); a model's `model.json` records
//! it ([`PlaySettings`](crate::PlaySettings)) and `net:` specs
//! name it (`score=U`, `rollouts=R,mix=W,playout=P`), so that a model is played the way its
//! run trained and gated it. Play adds one setting that self-play never uses: what a draw is
//! worth to the player (`draw=D`).

use oxo_agents::AgentSpec;
use oxo_rules::{DrawValue, Player, PlayoutPolicy};
use oxo_search::RolloutConfig;

/// The value parameters a `net:` spec takes (see [`NetValue::from_spec`]).
pub const VALUE_PARAMS: &[&str] = &["score", "rollouts", "mix", "playout", "draw"];

/// Checks a `net:` spec's value parameters written alone (`score=0.5`,
/// `rollouts=16,mix=0.5`), as `oxo export --value` takes them: the value they ask for, or
/// an error in words for another parameter or a bad value.
pub fn check_value_params(text: &str) -> Result<NetValue, String> {
    NetValue::from_spec(&crate::spec_of_params(text, "value", VALUE_PARAMS)?)
}

/// How a net's evaluations are turned into search values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NetValue {
    /// The score head's share of each value ([`oxo_encode::search_value`]).
    pub score_utility: f32,
    /// The random playouts mixed into each value.
    pub rollouts: RolloutConfig,
    /// What a draw is worth to the player searching, in `[-1, 1]` (its opponent's is the
    /// negation): in the net's win/draw/loss value, the playouts and the finished positions
    /// of the tree. Below 0 it plays on for a win where a draw was on offer; 0 (self-play's
    /// and the gate's) values a draw halfway between a win and a loss.
    pub draw: f32,
}

impl NetValue {
    /// The net's win/draw/loss value alone.
    pub const PLAIN: NetValue = NetValue {
        score_utility: 0.0,
        rollouts: RolloutConfig::OFF,
        draw: 0.0,
    };

    /// What a draw is worth to each player when `side` searches with this value.
    pub fn draw_for(&self, side: Player) -> DrawValue {
        DrawValue {
            side,
            value: self.draw,
        }
    }

    /// The `net:` spec parameters that ask for this value: `,rollouts=R,mix=W` (with
    /// `,playout=tactical` for tactical playouts), `,score=U` and `,draw=D`, each left out
    /// when off.
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
        if self.draw != 0.0 {
            params += &format!(",draw={}", self.draw);
        }
        params
    }

    /// The value a `net:` spec asks for (its `rollouts`, `mix`, `playout`, `score` and
    /// `draw` parameters; the net's value alone by default), or what is wrong with them in
    /// words.
    pub fn from_spec(spec: &AgentSpec) -> Result<NetValue, String> {
        NetValue::from_spec_over(spec, NetValue::PLAIN)
    }

    /// The value a `net:` spec asks for where `recorded` is the value its model plays with
    /// (its `model.json`'s or its run's): each parameter the spec names replaces that part
    /// of `recorded`, so `net:ms=500` plays the model as recorded and `net:score=0` turns
    /// its score utility off. `mix` defaults to 0.5 where `recorded` has no playouts.
    pub fn from_spec_over(spec: &AgentSpec, recorded: NetValue) -> Result<NetValue, String> {
        let text = |e: oxo_agents::SpecError| e.to_string();
        let base = recorded.rollouts;
        let base_weight = if base.is_on() { base.weight } else { 0.5 };
        let rollouts = RolloutConfig {
            playouts: spec
                .param(
                    "rollouts",
                    base.playouts,
                    "random playouts per evaluation, e.g. 8",
                )
                .map_err(text)?,
            weight: spec
                .param(
                    "mix",
                    base_weight,
                    "the playouts' weight in a value, 0 to 1, e.g. 0.5",
                )
                .map_err(text)?,
            policy: spec
                .param("playout", base.policy, "uniform or tactical")
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
                recorded.score_utility,
                "the score head's weight in a value, 0 to 1, e.g. 0.5",
            )
            .map_err(text)?;
        if !(0.0..=1.0).contains(&score_utility) {
            return Err(format!(
                "agent 'net': score must lie in 0..=1 (got score={score_utility})"
            ));
        }
        let draw = spec
            .param(
                "draw",
                recorded.draw,
                "a draw's value to the player, -1 to 1, e.g. -0.2",
            )
            .map_err(text)?;
        if !(-1.0..=1.0).contains(&draw) {
            return Err(format!(
                "agent 'net': draw must lie in -1..=1 (got draw={draw})"
            ));
        }
        // Without playouts their weight and policy mean nothing: one value, `OFF`.
        let rollouts = match rollouts.playouts {
            0 => RolloutConfig::OFF,
            _ => rollouts,
        };
        Ok(NetValue {
            score_utility,
            rollouts,
            draw,
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
        let value = value_of("net:sims=8,rollouts=4,mix=0.25,playout=tactical,score=0.5,draw=-0.2")
            .expect("valid");
        let expected = NetValue {
            score_utility: 0.5,
            rollouts: RolloutConfig {
                playouts: 4,
                weight: 0.25,
                policy: PlayoutPolicy::Tactical,
            },
            draw: -0.2,
        };
        assert_eq!(value, expected);
        let params = value.spec_params();
        assert_eq!(
            params,
            ",rollouts=4,mix=0.25,playout=tactical,score=0.5,draw=-0.2"
        );
        assert_eq!(value_of(&format!("net:sims=8{params}")), Ok(value));
        for (spec, message) in [
            ("net:score=2", "score must lie in 0..=1"),
            ("net:draw=-2", "draw must lie in -1..=1"),
            ("net:draw=none", "a draw's value to the player"),
            ("net:mix=1.5", "mix must lie in 0..=1"),
            ("net:rollouts=many", "rollouts"),
            ("net:rollouts=4,playout=smart", "uniform or tactical"),
        ] {
            let err = value_of(spec).expect_err(spec);
            assert!(err.contains(message), "{spec}: {err}");
        }
    }

    /// `oxo export --value` takes the value parameters alone and refuses any other by name,
    /// with the ones it accepts.
    #[test]
    fn value_parameters_alone_are_checked() {
        let score = check_value_params("score=0.5").expect("valid");
        assert_eq!(score.score_utility, 0.5);
        assert!(!score.rollouts.is_on());
        let mixed = check_value_params("rollouts=16,mix=0.5").expect("valid");
        assert_eq!((mixed.rollouts.playouts, mixed.rollouts.weight), (16, 0.5));
        let err = check_value_params("score=0.5,ms=400").expect_err("ms is a search parameter");
        assert!(
            err.contains("'ms' is not a value parameter (score, rollouts"),
            "{err}"
        );
        let err = check_value_params("score=-1").expect_err("out of range");
        assert!(err.contains("score must lie in 0..=1"), "{err}");
    }

    /// Over a recorded value, a spec changes only what it names: none keeps the record,
    /// `score=0` and `rollouts=0` turn each part off, and `rollouts` alone over a record
    /// without playouts mixes them in at 0.5.
    #[test]
    fn a_spec_changes_only_what_it_names_of_the_recorded_value() {
        let over = |spec: &str, recorded: NetValue| {
            NetValue::from_spec_over(&spec.parse().expect("a spec"), recorded).expect(spec)
        };
        let recorded = NetValue {
            score_utility: 0.25,
            rollouts: RolloutConfig {
                playouts: 16,
                weight: 0.75,
                policy: PlayoutPolicy::Tactical,
            },
            draw: -0.1,
        };
        assert_eq!(over("net:ms=500", recorded), recorded);
        assert_eq!(over("net:draw=0", recorded).draw, 0.0);
        assert_eq!(over("net:draw=0", recorded).rollouts, recorded.rollouts);
        assert_eq!(over("net:ms=500,score=0", recorded).score_utility, 0.0);
        assert_eq!(
            over("net:ms=500,score=0", recorded).rollouts,
            recorded.rollouts
        );
        assert!(!over("net:rollouts=0", recorded).rollouts.is_on());
        let fewer = over("net:rollouts=4", recorded).rollouts;
        assert_eq!((fewer.playouts, fewer.weight), (4, 0.75));
        assert_eq!(fewer.policy, PlayoutPolicy::Tactical);
        let added = over("net:rollouts=8", NetValue::PLAIN).rollouts;
        assert_eq!((added.playouts, added.weight), (8, 0.5));
        let err = NetValue::from_spec_over(&"net:score=3".parse().unwrap(), recorded);
        assert!(
            err.expect_err("out of range")
                .contains("score must lie in 0..=1")
        );
    }
}
