//! Random playouts per second on one thread: our `ultimate` against the `board-game` crate's
//! `sttt` (`STTTBoard::play_random_available_move` with rand 0.8's `SmallRng`), run in one
//! process with the same time budget each, interleaved in rounds so that machine noise hits
//! both alike.
//!
//! `cargo bench -p oxo-rules --bench versus_sttt [-- SECONDS_PER_SIDE [ROUNDS]]`
//! (defaults: 3 seconds per side, in 6 rounds).

use std::hint::black_box;
use std::time::{Duration, Instant};

use board_game::board::{Board, Outcome as SttOutcome};
use board_game::games::sttt::STTTBoard;
use oxo_rules::ultimate::Ultimate;
use oxo_rules::{Game, Outcome, random_playout};

/// Playouts between two looks at the clock.
const BATCH: u64 = 2_000;

/// Totals of one side: playouts, moves, and a checksum of the results (kept so the work is
/// not optimised away, and printed as the win/draw split).
#[derive(Default)]
struct Tally {
    playouts: u64,
    moves: u64,
    wins: [u64; 2],
    elapsed: Duration,
}

impl Tally {
    fn rate(&self) -> f64 {
        self.playouts as f64 / self.elapsed.as_secs_f64()
    }

    fn report(&self, name: &str) {
        let draws = self.playouts - self.wins[0] - self.wins[1];
        println!(
            "{name:>8}: {:>10.0} playouts/s  {:>6.2} moves/game  ({} playouts in {:.2} s; \
             first player wins {:.1}%, second {:.1}%, draws {:.1}%)",
            self.rate(),
            self.moves as f64 / self.playouts as f64,
            self.playouts,
            self.elapsed.as_secs_f64(),
            100.0 * self.wins[0] as f64 / self.playouts as f64,
            100.0 * self.wins[1] as f64 / self.playouts as f64,
            100.0 * draws as f64 / self.playouts as f64,
        );
    }
}

/// Runs batches of our playouts for `budget`.
fn run_ours(tally: &mut Tally, rng: &mut rand::rngs::SmallRng, budget: Duration) {
    let start = Instant::now();
    while start.elapsed() < budget {
        for _ in 0..BATCH {
            let (end, plies) = random_playout(black_box(Ultimate::new()), rng);
            tally.moves += plies as u64;
            if let Some(Outcome::Win(player)) = end.outcome() {
                tally.wins[player.index()] += 1;
            }
        }
        tally.playouts += BATCH;
    }
    tally.elapsed += start.elapsed();
}

/// Runs batches of `sttt` playouts for `budget`.
fn run_sttt(tally: &mut Tally, rng: &mut rand08::rngs::SmallRng, budget: Duration) {
    let start = Instant::now();
    while start.elapsed() < budget {
        for _ in 0..BATCH {
            let mut board = black_box(STTTBoard::default());
            while !board.is_done() {
                board.play_random_available_move(rng).unwrap();
                tally.moves += 1;
            }
            if let Some(SttOutcome::WonBy(player)) = board.outcome() {
                tally.wins[player.index() as usize] += 1;
            }
        }
        tally.playouts += BATCH;
    }
    tally.elapsed += start.elapsed();
}

fn main() {
    // `cargo bench` passes `--bench`; the numbers are ours.
    let numbers: Vec<f64> = std::env::args()
        .skip(1)
        .filter_map(|arg| arg.parse().ok())
        .collect();
    let seconds = numbers.first().copied().unwrap_or(3.0);
    let rounds = numbers.get(1).map_or(6, |&r| r.max(1.0) as u32);
    let slice = Duration::from_secs_f64(seconds / rounds as f64);

    use rand::SeedableRng as _;
    use rand08::SeedableRng as _;
    let mut ours_rng = rand::rngs::SmallRng::seed_from_u64(1);
    let mut sttt_rng = rand08::rngs::SmallRng::seed_from_u64(1);
    let (mut ours, mut sttt) = (Tally::default(), Tally::default());

    // Warm up both (caches, branch predictors, CPU clock), then alternate.
    run_ours(
        &mut Tally::default(),
        &mut ours_rng,
        Duration::from_millis(200),
    );
    run_sttt(
        &mut Tally::default(),
        &mut sttt_rng,
        Duration::from_millis(200),
    );
    for round in 0..rounds {
        if round % 2 == 0 {
            run_ours(&mut ours, &mut ours_rng, slice);
            run_sttt(&mut sttt, &mut sttt_rng, slice);
        } else {
            run_sttt(&mut sttt, &mut sttt_rng, slice);
            run_ours(&mut ours, &mut ours_rng, slice);
        }
    }

    println!("single-thread random playouts, {seconds} s per side in {rounds} interleaved rounds");
    ours.report("ultimate");
    sttt.report("sttt");
    println!("ratio ultimate/sttt: {:.2}x", ours.rate() / sttt.rate());
}
