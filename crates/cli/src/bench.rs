//! `oxo bench rules`: random playouts per second on one thread and on all threads, and the
//! mean game length, per variant. `oxo bench agents`: search speed of the searching agents.

use std::time::{Duration, Instant};

use oxo_agents::{AgentSpec, build_agent};
use oxo_rules::{Game, random_playout};
use oxo_variants::{Variant, with_variant};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use serde::Serialize;

/// One variant's random-playout rates.
#[derive(Debug, Serialize)]
pub struct RulesBench {
    /// The variant measured.
    pub variant: String,
    /// Complete random games per second on one thread.
    pub playouts_per_sec_1t: f64,
    /// Complete random games per second summed over all threads.
    pub playouts_per_sec_all: f64,
    /// Mean number of moves in a random game.
    pub mean_moves: f64,
    /// How many threads "all" used.
    pub threads: usize,
}

/// Counts random playouts of `G` on one thread for about `duration`: (games, moves, seconds).
fn playouts_for<G: Game>(duration: Duration, seed: u64) -> (u64, u64, f64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let start = Instant::now();
    let (mut games, mut moves) = (0u64, 0u64);
    while start.elapsed() < duration {
        // Check the clock every 64 games, not every game.
        for _ in 0..64 {
            let (_, plies) = random_playout(G::new(), &mut rng);
            moves += plies as u64;
            games += 1;
        }
    }
    (games, moves, start.elapsed().as_secs_f64())
}

/// Measures one variant: first one thread, then `threads` threads at once.
pub fn bench_variant(variant: Variant, duration: Duration, threads: usize) -> RulesBench {
    with_variant!(variant, G => {
        let (games, moves, seconds) = playouts_for::<G>(duration, 1);
        let all: Vec<(u64, u64, f64)> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|t| scope.spawn(move || playouts_for::<G>(duration, 100 + t as u64)))
                .collect();
            workers.into_iter().map(|w| w.join().expect("bench thread panicked")).collect()
        });
        let rate_all = all.iter().map(|&(g, _, s)| g as f64 / s).sum();
        RulesBench {
            variant: variant.name().to_string(),
            playouts_per_sec_1t: games as f64 / seconds,
            playouts_per_sec_all: rate_all,
            mean_moves: moves as f64 / games as f64,
            threads,
        }
    })
}

/// A table header and row for the human-readable output.
pub fn table_header() -> String {
    format!(
        "{:<10} {:>16} {:>16} {:>8} {:>11}",
        "variant", "playouts/s (1t)", "playouts/s (all)", "threads", "mean moves"
    )
}

impl RulesBench {
    /// This measurement as a row under [`table_header`].
    pub fn table_row(&self) -> String {
        format!(
            "{:<10} {:>16.0} {:>16.0} {:>8} {:>11.2}",
            self.variant,
            self.playouts_per_sec_1t,
            self.playouts_per_sec_all,
            self.threads,
            self.mean_moves
        )
    }
}

/// One agent's search speed in one variant.
#[derive(Debug, Serialize)]
pub struct AgentBench {
    /// The variant measured.
    pub variant: String,
    /// The agent spec measured.
    pub agent: String,
    /// Alpha-beta nodes or UCT simulations per second, on one thread.
    pub nodes_per_sec: f64,
}

/// Measures each searching agent's nodes (or simulations) per second on one thread, over
/// `positions` positions reached by random play, with `move_ms` milliseconds per move.
pub fn bench_agents(variant: Variant, move_ms: u64, positions: usize) -> Vec<AgentBench> {
    let specs = [
        format!("alphabeta:ms={move_ms}"),
        format!("uct:ms={move_ms}"),
        format!("uct:ms={move_ms},playout=tactical"),
    ];
    with_variant!(variant, G => {
        let mut rng = SmallRng::seed_from_u64(7);
        let starts: Vec<G> = (0..positions)
            .map(|i| {
                let mut game = G::new();
                for _ in 0..i * 3 {
                    let mut next = game;
                    next.play(game.random_action(&mut rng));
                    if next.is_over() {
                        break;
                    }
                    game = next;
                }
                game
            })
            .collect();
        specs
            .iter()
            .map(|text| {
                let spec: AgentSpec = text.parse().expect("bench specs are valid");
                let mut agent = build_agent::<G>(&spec).expect("bench agents build");
                let start = Instant::now();
                for game in &starts {
                    agent.choose(game);
                }
                AgentBench {
                    variant: variant.name().to_string(),
                    agent: text.clone(),
                    nodes_per_sec: agent.nodes_searched() as f64 / start.elapsed().as_secs_f64(),
                }
            })
            .collect()
    })
}
