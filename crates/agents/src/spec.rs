//! Agent spec strings: `kind` or `kind:key=value,key=value`.

use std::collections::BTreeMap;
use std::str::FromStr;
use std::time::Duration;

use crate::AGENT_KINDS;

/// A parsed agent spec such as `uct:sims=10000,seed=2`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentSpec {
    /// The agent kind, e.g. `uct`.
    pub kind: String,
    /// Parameters in key order.
    pub params: BTreeMap<String, String>,
    /// The text it was parsed from: the agent's display name.
    pub text: String,
}

/// The longest time a move may be given, `ms=600000` (10 minutes), for every agent that
/// takes a time per move.
pub const MAX_MS: u32 = 600_000;

/// What is wrong with an agent spec.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// The kind before `:` is not a known agent.
    #[error("unknown agent '{0}': choose one of {kinds}", kinds = kind_names())]
    UnknownKind(String),
    /// A parameter is not `key=value`.
    #[error("bad agent parameter '{0}': write it as key=value")]
    Malformed(String),
    /// A parameter is given more than once.
    #[error("agent parameter '{0}' is given twice: give it once")]
    Repeated(String),
    /// The agent does not take this parameter.
    #[error("agent '{kind}' has no parameter '{param}': it takes {list}", list = list_or_none(allowed))]
    UnknownParam {
        /// The agent kind.
        kind: String,
        /// The parameter name given.
        param: String,
        /// The parameters it does take.
        allowed: &'static [&'static str],
    },
    /// The agent cannot play this variant.
    #[error("agent '{kind}' cannot play {variant}: the variant is too large to solve")]
    NotForVariant {
        /// The agent kind.
        kind: String,
        /// The variant's name.
        variant: &'static str,
    },
    /// An agent built outside this crate (a net) refused its spec; the message, in the
    /// agent's own words, names what is wrong and what it accepts.
    #[error("{0}")]
    Refused(String),
    /// A parameter's value cannot be used.
    #[error("bad value '{value}' for {param}: expected {expected}")]
    BadValue {
        /// The parameter name.
        param: String,
        /// The value given.
        value: String,
        /// What would be accepted.
        expected: &'static str,
    },
}

/// The known agent kinds, comma separated.
fn kind_names() -> String {
    let kinds: Vec<&str> = AGENT_KINDS.iter().map(|(name, _)| *name).collect();
    kinds.join(", ")
}

/// `names` comma separated, or "none".
fn list_or_none(names: &[&str]) -> String {
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(", ")
    }
}

impl FromStr for AgentSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        let (kind, rest) = text.split_once(':').unwrap_or((text, ""));
        let mut params = BTreeMap::new();
        for part in rest.split(',').filter(|p| !p.trim().is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or(SpecError::Malformed(part.into()))?;
            let (key, value) = (key.trim(), value.trim());
            if key.is_empty() || value.is_empty() {
                return Err(SpecError::Malformed(part.into()));
            }
            let key = key.to_ascii_lowercase();
            if params.insert(key.clone(), value.to_string()).is_some() {
                return Err(SpecError::Repeated(key));
            }
        }
        let kind = kind.trim().to_ascii_lowercase();
        if kind.is_empty() {
            return Err(SpecError::UnknownKind(kind));
        }
        Ok(AgentSpec {
            kind,
            params,
            text: text.to_string(),
        })
    }
}

impl AgentSpec {
    /// Parses a comma-separated list of specs, as `oxo arena --agents` takes it. Parameters
    /// are comma-separated too, so a piece with `=` but no `:` continues the previous spec:
    /// `random,uct:sims=100,c=2,greedy` is three agents.
    pub fn parse_list(text: &str) -> Result<Vec<AgentSpec>, SpecError> {
        let mut groups: Vec<String> = Vec::new();
        for piece in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            match groups.last_mut() {
                Some(last) if piece.contains('=') && !piece.contains(':') => {
                    last.push(',');
                    last.push_str(piece);
                }
                _ => groups.push(piece.to_string()),
            }
        }
        groups.iter().map(|g| g.parse()).collect()
    }

    /// Fails if any parameter is not in `allowed`.
    pub fn expect_params(&self, allowed: &'static [&'static str]) -> Result<(), SpecError> {
        match self.params.keys().find(|k| !allowed.contains(&k.as_str())) {
            Some(param) => Err(SpecError::UnknownParam {
                kind: self.kind.clone(),
                param: param.clone(),
                allowed,
            }),
            None => Ok(()),
        }
    }

    /// A parameter parsed as `T`, or `default` when absent.
    pub fn param<T: FromStr>(
        &self,
        name: &str,
        default: T,
        expected: &'static str,
    ) -> Result<T, SpecError> {
        match self.params.get(name) {
            None => Ok(default),
            Some(value) => value.parse().map_err(|_| SpecError::BadValue {
                param: name.to_string(),
                value: value.clone(),
                expected,
            }),
        }
    }

    /// The `ms=M` time per move (1 to [`MAX_MS`] milliseconds), `None` when it is not given.
    pub fn time_per_move(&self) -> Result<Option<Duration>, SpecError> {
        if !self.params.contains_key("ms") {
            return Ok(None);
        }
        let ms = self.bounded_param("ms", 0u32, 1, MAX_MS, "milliseconds from 1 to 600000")?;
        Ok(Some(Duration::from_millis(u64::from(ms))))
    }

    /// A number parameter (any `T` that converts to `f64`, e.g. `u32`, `u64`, `f32`) that
    /// must lie in `low..=high` and be finite, or `default` when absent; `expected` names
    /// the range in words for the error.
    pub fn bounded_param<T>(
        &self,
        name: &str,
        default: T,
        low: T,
        high: T,
        expected: &'static str,
    ) -> Result<T, SpecError>
    where
        T: FromStr + PartialOrd + Copy + Into<f64>,
    {
        let value = self.param(name, default, expected)?;
        if value.into().is_finite() && low <= value && value <= high {
            Ok(value)
        } else {
            Err(SpecError::BadValue {
                param: name.to_string(),
                value: self.params[name].clone(),
                expected,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_kind_and_params() {
        let spec: AgentSpec = "UCT:sims=100, seed=3".parse().unwrap();
        assert_eq!(spec.kind, "uct");
        assert_eq!(spec.params["sims"], "100");
        assert_eq!(spec.params["seed"], "3");
        assert_eq!(spec.param("sims", 0u32, "a count"), Ok(100));
        assert_eq!(spec.param("ms", 7u32, "a count"), Ok(7));
    }

    #[test]
    fn lists_keep_parameters_with_their_agent() {
        let specs =
            AgentSpec::parse_list("random, uct:sims=100,c=2,greedy,alphabeta:ms=5").unwrap();
        let texts: Vec<&str> = specs.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(
            texts,
            ["random", "uct:sims=100,c=2", "greedy", "alphabeta:ms=5"]
        );
        assert_eq!(specs[1].params["c"], "2");
    }

    #[test]
    fn rejects_malformed_params() {
        assert!(matches!(
            "uct:sims".parse::<AgentSpec>(),
            Err(SpecError::Malformed(_))
        ));
        assert!(matches!(
            "uct:=3".parse::<AgentSpec>(),
            Err(SpecError::Malformed(_))
        ));
        assert!(matches!(
            "".parse::<AgentSpec>(),
            Err(SpecError::UnknownKind(_))
        ));
    }

    /// A repeated key is refused instead of the last one silently winning; numbers out of
    /// their range (negative, zero, NaN, infinite) are refused with the range.
    #[test]
    fn repeated_keys_and_out_of_range_numbers_are_refused() {
        let err = "uct:sims=5,sims=6".parse::<AgentSpec>().unwrap_err();
        assert_eq!(err, SpecError::Repeated("sims".into()));
        assert!(err.to_string().contains("given twice"), "{err}");
        for text in ["c=-1", "c=nan", "c=inf", "c=0"] {
            let spec: AgentSpec = format!("uct:{text}").parse().unwrap();
            let err = spec
                .bounded_param("c", 1.4f32, f32::MIN_POSITIVE, 1e6, "a positive number")
                .unwrap_err();
            assert!(
                err.to_string().contains("a positive number"),
                "{text}: {err}"
            );
        }
        let spec: AgentSpec = "uct:c=2".parse().unwrap();
        assert_eq!(spec.bounded_param("c", 1.4f32, 0.1, 10.0, "c"), Ok(2.0));
        assert_eq!(spec.bounded_param("sims", 7u32, 1, 9, "s"), Ok(7));
    }

    #[test]
    fn errors_say_what_to_do() {
        let spec: AgentSpec = "random:depth=x".parse().unwrap();
        let err = spec.expect_params(&["seed"]).unwrap_err().to_string();
        assert!(err.contains("depth") && err.contains("seed"), "{err}");
        let err = spec
            .param("depth", 0u32, "a whole number")
            .unwrap_err()
            .to_string();
        assert!(err.contains("'x'") && err.contains("whole number"), "{err}");
        let err = SpecError::UnknownKind("foo".into()).to_string();
        assert!(err.contains("random"), "{err}");
    }
}
