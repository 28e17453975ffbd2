//! Self-play and gating games spread over worker threads, one core each.
//!
//! Each worker runs its own searches and calls the network on its own single-threaded rayon
//! pool, so burn's flex backend keeps every matrix multiply on that worker's core. On 2
//! cores this beats one search loop whose network calls use both threads: the batches of
//! small networks are too small to split well, and the search between calls would leave one
//! core idle.

use std::num::NonZeroUsize;

/// The number of workers `configured` asks for: itself, or one per core when 0.
pub fn resolve(configured: usize) -> usize {
    if configured > 0 {
        configured
    } else {
        std::thread::available_parallelism().map_or(1, NonZeroUsize::get)
    }
}

/// Runs `job(w)` for each worker `w` in `0..workers`, each on its own thread with a
/// one-thread rayon pool installed; returns the results in worker order. One worker runs on
/// the calling thread (still with a one-thread pool), which keeps single-worker runs exactly
/// as they were.
pub fn run_on_workers<T: Send>(workers: usize, job: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let single = |w: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("a one-thread rayon pool builds")
            .install(|| job(w))
    };
    if workers <= 1 {
        return vec![single(0)];
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|w| scope.spawn(move || single(w)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

/// Splits `0..n` into `parts` contiguous ranges whose lengths differ by at most one (empty
/// ranges when `n < parts`).
pub fn split(n: usize, parts: usize) -> Vec<std::ops::Range<usize>> {
    let parts = parts.max(1);
    (0..parts)
        .map(|p| (p * n / parts)..((p + 1) * n / parts))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workers_each_run_once_in_order_on_one_thread_pools() {
        let out = run_on_workers(3, |w| (w, rayon::current_num_threads()));
        assert_eq!(out, vec![(0, 1), (1, 1), (2, 1)]);
        assert_eq!(run_on_workers(1, |w| w + 10), vec![10]);
        assert_eq!(resolve(5), 5);
        assert!(resolve(0) >= 1);
    }

    #[test]
    fn split_covers_everything_evenly() {
        assert_eq!(split(10, 3), vec![0..3, 3..6, 6..10]);
        assert_eq!(split(1, 2), vec![0..0, 0..1]);
        assert_eq!(split(4, 0), vec![0..4]);
    }
}
