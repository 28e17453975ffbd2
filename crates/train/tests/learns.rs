//! Training works: a short tictactoe run with the shipped config gives a network that, with
//! search, never loses to the exact solver, and its ratings against the handcrafted agents are
//! logged. In a test binary of its own so that no other
//! training test shares its process (and rayon pool) while it runs.
//!
//! It relies on the Gumbel `c_scale` of 0.1 (mctx's): with 1.0 the search drops good moves on
//! one noisy early visit and this test is flaky (docs/experiments.md, section 'The search and
//! the gate').

use std::time::{Duration, Instant};

use oxo_agents::{Agent, AgentSpec, build_agent};
use oxo_engine::EngineKind;
use oxo_nn::Device;
use oxo_player::{ModelFile, NetAgent};
use oxo_rules::{Game, Outcome, Player};
use oxo_train::RunConfig;
use oxo_train::config::SchemeName;
use oxo_train::play_search::PlaySearch;
use oxo_train::roles::{ConfigChoice, Role, RoleOptions, StoreRun, run_role};
use oxo_variants::tictactoe::TicTacToe;

/// Plays `agent` against the solver from both sides; returns the agent's losses.
fn losses_against_solver(agent: &mut dyn Agent<TicTacToe>, games: u64) -> usize {
    let mut losses = 0;
    for seed in 0..games {
        for net_side in Player::BOTH {
            let spec: AgentSpec = format!("solver:seed={seed}").parse().unwrap();
            let mut solver = build_agent::<TicTacToe>(&spec).unwrap();
            let mut game = TicTacToe::new();
            while !game.is_over() {
                let action = if game.to_move() == net_side {
                    agent.choose(&game)
                } else {
                    solver.choose(&game)
                };
                game.play(action);
            }
            if let Some(Outcome::Win(p)) = game.outcome()
                && p != net_side
            {
                losses += 1;
            }
        }
    }
    losses
}

#[test]
fn a_short_tictactoe_run_never_loses_to_the_solver() {
    let dir = tempfile::tempdir().unwrap();
    // The shipped tictactoe config, cut to a fixed number of generations.
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/../../configs/tictactoe.toml");
    let mut config = RunConfig::load(std::path::Path::new(shipped)).unwrap();
    config.generations = 24;
    let options = RoleOptions {
        time_limit: Some(Duration::from_secs(400)),
        cache: Some(dir.path().join("cache")),
        ..Default::default()
    };
    let root = dir.path().join("run");
    let run = StoreRun::open(
        root.to_str().unwrap(),
        None,
        ConfigChoice::Given(config.clone()),
        &options,
    )
    .unwrap();
    let start = Instant::now();
    let summary = run_role::<TicTacToe>(&run, Role::All, &Device::flex(), &options).unwrap();
    eprintln!("{summary} in {:.0}s", start.elapsed().as_secs_f64());
    // The best net was rated against the handcrafted agents every `rate_every` generations,
    // and is clearly stronger than the anchor, `random`, by the last rating.
    let metrics = std::fs::read_to_string(run.journal.metrics_path()).unwrap();
    let ratings: Vec<serde_json::Value> = metrics
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|r| r.get("elo").is_some())
        .collect();
    assert_eq!(ratings.len() as u64, 24 / config.gate.rate_every);
    let last = ratings.last().unwrap();
    assert!(
        last["elo_low"].as_f64().unwrap() > 0.0,
        "last rating: {last}"
    );
    let best =
        ModelFile::open::<TicTacToe>(&root.join("models/best.bpk")).expect("the best model reads");
    let mut agent = NetAgent::<TicTacToe>::load(
        &best,
        EngineKind::default(),
        None,
        PlaySearch::new(SchemeName::Gumbel, 64).with_leaves(4),
        "net",
    )
    .expect("best model loads");
    let losses = losses_against_solver(&mut agent, 10);
    assert_eq!(
        losses, 0,
        "the trained net lost {losses} of 20 games to the solver"
    );
}
