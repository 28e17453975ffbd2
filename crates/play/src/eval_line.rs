//! The JSON line a net's judgement of one position is printed as: `oxo gtp`'s `nn_eval`
//! answer, and the web page's `nnEval()`.

use oxo_encode::PositionEval;
use oxo_rules::Game;
use serde_json::{Map, Value, json};

/// `{"value": v, "wdl": [w, d, l], "policy": {"MOVE": p, ...}}`, plus `"score"` for nets with
/// a score head; moves in `G`'s notation, in action order.
pub fn nn_eval_line<G: Game>(eval: &PositionEval) -> String {
    let policy: Map<String, Value> = eval
        .policy
        .iter()
        .map(|&(action, p)| (G::format_action(action), json!(p)))
        .collect();
    let mut line = json!({ "value": eval.value, "wdl": eval.wdl, "policy": policy });
    if let Some(score) = eval.score {
        line["score"] = json!(score);
    }
    line.to_string()
}
