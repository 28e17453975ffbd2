//! onnxruntime and burn agree on the shipped nets: the same policy, value and score margin
//! within 1e-4 on 1,000 positions of every variant, reached by play that samples the net's
//! own policy (the positions its search meets), evaluated in batches of mixed sizes.
//!
//! Needs the onnxruntime library (the README's set-up installs it with pip): without it this
//! test fails and says how to get it, rather than passing without comparing anything.

use std::path::PathBuf;

use oxo_engine::{Engine, EngineKind, EngineModel};
use oxo_nn::{Device, Encode, Net, PositionEval};
use oxo_rules::ActionList;
use oxo_variants::{Variant, with_variant};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

const POSITIONS: usize = 1000;
const TOLERANCE: f32 = 1e-4;

fn shipped(variant: Variant) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../models")
        .join(variant.name())
        .join("model.bpk")
}

/// `POSITIONS` positions of `G`, none over, from games whose moves are drawn from `engine`'s
/// policy (a third of them uniformly, for variety).
fn positions<G: Encode>(engine: &mut Engine, rng: &mut SmallRng) -> Vec<G> {
    let mut positions = Vec::with_capacity(POSITIONS);
    let mut game = G::new();
    let mut legal = ActionList::new();
    while positions.len() < POSITIONS {
        if game.is_over() {
            game = G::new();
            continue;
        }
        positions.push(game);
        game.legal_actions(&mut legal);
        let action = if rng.random::<f32>() < 0.33 {
            legal[rng.random_range(0..legal.len())]
        } else {
            let eval = engine.evaluate_position(&game);
            let mut pick = rng.random::<f32>();
            eval.policy
                .iter()
                .find(|&&(_, p)| {
                    pick -= p;
                    pick <= 0.0
                })
                .map_or(legal[legal.len() - 1], |&(a, _)| a)
        };
        game.play(action);
    }
    positions
}

/// Every position's evaluation by `engine`, in batches of 1 to 97 positions.
fn evaluate_all<G: Encode>(engine: &mut Engine, positions: &[G]) -> Vec<PositionEval> {
    let mut evals = Vec::with_capacity(positions.len());
    let mut start = 0;
    let mut batch = 1;
    while start < positions.len() {
        let chunk = &positions[start..(start + batch).min(positions.len())];
        let mut inputs = vec![0.0; chunk.len() * G::INPUT_SIZE];
        for (position, input) in chunk.iter().zip(inputs.chunks_mut(G::INPUT_SIZE)) {
            position.encode(input);
        }
        let out = engine.evaluate(&inputs, chunk.len()).clone();
        let actions = G::NUM_ACTIONS;
        for (i, position) in chunk.iter().enumerate() {
            let one = oxo_nn::Evaluation {
                policy: out.policy[i * actions..(i + 1) * actions].to_vec(),
                wdl: out.wdl[i * 3..(i + 1) * 3].to_vec(),
                score: out.score.get(i).map(|&s| vec![s]).unwrap_or_default(),
            };
            evals.push(PositionEval::of(
                position,
                &one.policy,
                &one.wdl,
                one.score.first().copied(),
            ));
        }
        start += chunk.len();
        batch = batch * 2 % 97 + 1;
    }
    evals
}

/// The largest difference between two evaluations of one position.
fn difference(a: &PositionEval, b: &PositionEval) -> f32 {
    assert_eq!(a.policy.len(), b.policy.len());
    let policy = a
        .policy
        .iter()
        .zip(&b.policy)
        .map(|(&(x, p), &(y, q))| {
            assert_eq!(x, y);
            (p - q).abs()
        })
        .fold(0.0, f32::max);
    let wdl = (0..3)
        .map(|k| (a.wdl[k] - b.wdl[k]).abs())
        .fold(0.0, f32::max);
    let score = match (a.score, b.score) {
        (Some(s), Some(t)) => (s - t).abs(),
        (None, None) => 0.0,
        _ => panic!("one engine has a score head and the other not"),
    };
    policy.max(wdl).max(score).max((a.value - b.value).abs())
}

#[test]
fn onnxruntime_matches_burn_on_the_shipped_nets() {
    if let Err(why) = oxo_engine::library::onnxruntime() {
        panic!("this test compares onnxruntime with burn: {why}");
    }
    for variant in Variant::ALL {
        with_variant!(variant, G => {
            let net = Net::load::<G>(&shipped(variant), &Device::flex()).expect("shipped model");
            let onnx = EngineModel::new(&net, EngineKind::Onnxruntime);
            assert_eq!(onnx.kind(), EngineKind::Onnxruntime);
            let mut onnx = onnx.open(1);
            let mut burn = EngineModel::new(&net, EngineKind::Burn).open(1);
            let mut rng = SmallRng::seed_from_u64(variant as u64);
            let positions = positions::<G>(&mut onnx, &mut rng);
            let a = evaluate_all(&mut onnx, &positions);
            let b = evaluate_all(&mut burn, &positions);
            let worst = a
                .iter()
                .zip(&b)
                .map(|(a, b)| difference(a, b))
                .fold(0.0, f32::max);
            println!("{variant}: largest difference {worst:.2e} over {POSITIONS} positions");
            assert!(worst <= TOLERANCE, "{variant}: engines differ by {worst}");
        });
    }
}
