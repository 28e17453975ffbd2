//! Random playouts per second on one thread: our `ultimate` against the `board-game` crate's
//! `sttt` (`STTTBoard::play_random_available_move` with rand 0.8's `SmallRng`), run in one
//! process with the same time budget each, interleaved in rounds so that machine noise hits
//! both alike.
//!
//! `cargo bench -p oxo-rules --bench versus_sttt [-- SECONDS_PER_SIDE [ROUNDS]]`
//! (defaults: 3 seconds per side, in 6 rounds).
//!
//! On a busy machine the wall-clock rates sink with the share of a core the bench gets. On
//! Linux it also prints on-CPU rates (playouts per second the thread actually ran, from
//! `/proc/thread-self/schedstat`, good to a scheduler tick per round), which stay comparable
//! with a quiet machine's.

use std::hint::black_box;
use std::time::{Duration, Instant};

use board_game::board::{Board, Outcome as SttOutcome};
use board_game::games::sttt::STTTBoard;
use oxo_rules::{Game, Outcome, random_playout};
use oxo_variants::ultimate::Ultimate;

/// Playouts between two looks at the clock.
const BATCH: u64 = 2_000;

/// Totals of one side: playouts, moves, results (kept so that the work is not optimised
/// away, and printed as the win/draw split) and time.
#[derive(Default)]
struct Tally {
    playouts: u64,
    moves: u64,
    wins: [u64; 2],
    elapsed: Duration,
    /// Time the thread ran, where the system reports it.
    on_cpu: Option<Duration>,
}

impl Tally {
    fn rate(&self) -> f64 {
        self.playouts as f64 / self.elapsed.as_secs_f64()
    }

    fn cpu_rate(&self) -> Option<f64> {
        self.on_cpu
            .map(|time| self.playouts as f64 / time.as_secs_f64())
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
        if let Some(rate) = self.cpu_rate() {
            println!("{:>8}  {rate:>10.0} playouts/s on-CPU", "");
        }
    }

    /// Runs `work` and adds its wall-clock and on-CPU time.
    fn time(&mut self, work: impl FnOnce(&mut Tally)) {
        let (start, cpu_start) = (Instant::now(), thread_cpu_time());
        work(self);
        self.elapsed += start.elapsed();
        self.on_cpu = match (self.on_cpu, cpu_start, thread_cpu_time()) {
            (Some(sum), Some(begin), Some(end)) => Some(sum + (end - begin)),
            _ => None,
        };
    }
}

/// How long this thread has run on a CPU, where Linux reports it.
fn thread_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
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
    let warm_up = Duration::from_millis(200);
    let (mut ours, mut sttt) = (Tally::default(), Tally::default());
    ours.on_cpu = thread_cpu_time().map(|_| Duration::ZERO);
    sttt.on_cpu = ours.on_cpu;

    // Warm up both (caches, branch predictors, CPU clock), then alternate.
    run_ours(&mut Tally::default(), &mut ours_rng, warm_up);
    run_sttt(&mut Tally::default(), &mut sttt_rng, warm_up);
    for round in 0..rounds {
        let mut turn_ours = |tally: &mut Tally| run_ours(tally, &mut ours_rng, slice);
        let mut turn_sttt = |tally: &mut Tally| run_sttt(tally, &mut sttt_rng, slice);
        if round % 2 == 0 {
            ours.time(&mut turn_ours);
            sttt.time(&mut turn_sttt);
        } else {
            sttt.time(&mut turn_sttt);
            ours.time(&mut turn_ours);
        }
    }

    println!("single-thread random playouts, {seconds} s per side in {rounds} interleaved rounds");
    ours.report("ultimate");
    sttt.report("sttt");
    print!("ratio ultimate/sttt: {:.2}x", ours.rate() / sttt.rate());
    if let (Some(ours), Some(sttt)) = (ours.cpu_rate(), sttt.cpu_rate()) {
        print!(" ({:.2}x on-CPU)", ours / sttt);
    }
    println!();
}
