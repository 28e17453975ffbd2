//! How a trained net plays, without any ML framework: the search a `net:` agent runs
//! ([`PlaySearch`], from a spec's search parameters or a model's `model.json`) and how its
//! outputs become values ([`NetValue`]: the score head's share and random playouts). The
//! trainer's agents and the WebAssembly front end (`oxo-web`) both read them from here, so a
//! model plays the same search everywhere; and the line a net's judgement of a position is
//! printed as ([`nn_eval_line`]); and a model's `model.json` ([`ModelJson`], its settings
//! [`PlaySettings`]), which export writes and every player reads.

pub mod eval_line;
pub mod model_json;
pub mod play_search;
pub mod value;

use oxo_agents::AgentSpec;
use serde::{Deserialize, Serialize};

pub use eval_line::nn_eval_line;
pub use model_json::{ModelJson, PlaySettings};
pub use play_search::{Budget, PlaySearch};
pub use value::NetValue;

/// The spec kind of a net agent (`net:path=FILE,ms=400`): the kind `oxo-player`'s `NetAgent`
/// builds, and the one a run config's handcrafted checks leave to it.
pub const NET_KIND: &str = "net";

/// The `net:` spec of parameters written alone (`search=puct,ms=400`, `score=0.5`), when
/// each is one of `allowed`; else an error in words naming the `kind` of parameters
/// (`search`, `value`) and the ones accepted.
fn spec_of_params(text: &str, kind: &str, allowed: &[&str]) -> Result<AgentSpec, String> {
    let spec: AgentSpec = format!("net:{text}")
        .parse()
        .map_err(|e| format!("{kind} '{text}': {e}"))?;
    match spec
        .params
        .keys()
        .find(|key| !allowed.contains(&key.as_str()))
    {
        Some(param) => Err(format!(
            "{kind} '{text}': '{param}' is not a {kind} parameter ({})",
            allowed.join(", ")
        )),
        None => Ok(spec),
    }
}

/// A search scheme, as run configs (`selfplay.scheme`) and `net:` specs (`search=`) name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SchemeName {
    /// Gumbel MuZero search (the default).
    Gumbel,
    /// AlphaZero PUCT search with Dirichlet noise.
    Puct,
}

impl std::str::FromStr for SchemeName {
    type Err = String;

    /// `gumbel` or `puct`, as configs and `net:` specs spell them.
    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "gumbel" => Ok(SchemeName::Gumbel),
            "puct" => Ok(SchemeName::Puct),
            _ => Err(format!(
                "unknown search scheme '{text}': use gumbel or puct"
            )),
        }
    }
}
