//! Training works: a short tictactoe run with the shipped config gives a network that, with
//! search, never loses to the exact solver. In a test binary of its own so that no other
//! training test shares its process (and rayon pool) while it runs.
//!
//! Ignored by default until it passes reliably: runs differ (burn's multi-threaded float
//! reductions make training nondeterministic) and some end with a net that loses every game
//! as one side. `cargo test -p oxo-train --test learns -- --ignored` runs it.

use std::time::{Duration, Instant};

use oxo_agents::{Agent, AgentSpec, build_agent};
use oxo_nn::Device;
use oxo_rules::tictactoe::TicTacToe;
use oxo_rules::{Game, Outcome, Player};
use oxo_train::{LoopOptions, NetAgent, RunConfig, RunDir, run_loop};

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
#[ignore = "not yet reliable: some 24-generation runs lose 10 of 20 games as one side; run with --ignored"]
fn a_short_tictactoe_run_never_loses_to_the_solver() {
    let dir = tempfile::tempdir().unwrap();
    // The shipped tictactoe config, cut to a fixed number of generations.
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/../../configs/tictactoe.toml");
    let mut config = RunConfig::load(std::path::Path::new(shipped)).unwrap();
    config.generations = 24;
    let run = RunDir::open(dir.path(), &config).unwrap();
    let options = LoopOptions {
        time_limit: Some(Duration::from_secs(400)),
        ..LoopOptions::default()
    };
    let start = Instant::now();
    let state = run_loop::<TicTacToe>(&run, &Device::flex(), &options).unwrap();
    eprintln!(
        "trained {} generations in {:.0}s; best is gen {}",
        state.generation - 1,
        start.elapsed().as_secs_f64(),
        state.best
    );
    let mut agent =
        NetAgent::<TicTacToe>::load(&run.best_path(), 64, 4, "net").expect("best model loads");
    let losses = losses_against_solver(&mut agent, 10);
    assert_eq!(
        losses, 0,
        "the trained net lost {losses} of 20 games to the solver"
    );
}
