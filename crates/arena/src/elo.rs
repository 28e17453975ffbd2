//! Elo ratings with 95% intervals from game results: the Bradley–Terry model fitted by
//! maximum a-posteriori Newton iterations.
//!
//! A draw counts half a win for each side. Every pair of agents that met also gets one
//! virtual draw (the prior BayesElo uses), so an agent that won every game still gets a
//! finite rating. Intervals come from the inverse Hessian (the Laplace approximation). One
//! agent is the anchor at 0 (conventionally `random`).

use serde::Serialize;

/// Elo points per natural-log unit of the Bradley–Terry strength.
const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;
/// The z value of a two-sided 95% interval.
const Z95: f64 = 1.959_964;
/// Virtual draws added to every pair that played.
const PRIOR_DRAWS: f64 = 1.0;

/// Results between two agents: `score` is `i`'s wins plus half the draws.
#[derive(Clone, Copy, Debug)]
pub struct PairScore {
    /// First agent.
    pub i: usize,
    /// Second agent.
    pub j: usize,
    /// Games played.
    pub games: f64,
    /// `i`'s wins plus half the draws.
    pub score: f64,
}

/// An agent's rating and its 95% interval, in Elo.
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct Rating {
    /// Maximum a-posteriori Elo.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

/// Fits ratings for `agents` agents from pairwise scores, with `anchor` fixed at 0.
pub fn fit_ratings(agents: usize, pairs: &[PairScore], anchor: usize) -> Vec<Rating> {
    let free: Vec<usize> = (0..agents).filter(|&a| a != anchor).collect();
    let mut theta = vec![0.0f64; agents];
    let mut covariance = vec![vec![0.0; free.len()]; free.len()];
    for _ in 0..100 {
        let (gradient, hessian) = derivatives(agents, pairs, &theta);
        let g: Vec<f64> = free.iter().map(|&a| gradient[a]).collect();
        let negative_h: Vec<Vec<f64>> = free
            .iter()
            .map(|&a| free.iter().map(|&b| -hessian[a][b]).collect())
            .collect();
        let Some(inverse) = invert(&negative_h) else {
            break;
        };
        let mut largest_step = 0.0f64;
        for (row, &a) in free.iter().enumerate() {
            let step: f64 = (0..free.len()).map(|col| inverse[row][col] * g[col]).sum();
            theta[a] += step.clamp(-5.0, 5.0);
            largest_step = largest_step.max(step.abs());
        }
        covariance = inverse;
        if largest_step < 1e-10 {
            break;
        }
    }
    (0..agents)
        .map(|a| {
            let elo = theta[a] * ELO_PER_NAT;
            let sd = free.iter().position(|&f| f == a).map_or(0.0, |row| {
                covariance[row][row].max(0.0).sqrt() * ELO_PER_NAT
            });
            Rating {
                elo,
                low: elo - Z95 * sd,
                high: elo + Z95 * sd,
            }
        })
        .collect()
}

/// Gradient and Hessian of the log posterior at `theta`.
fn derivatives(agents: usize, pairs: &[PairScore], theta: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let mut gradient = vec![0.0; agents];
    let mut hessian = vec![vec![0.0; agents]; agents];
    for pair in pairs {
        let games = pair.games + PRIOR_DRAWS;
        let score = pair.score + PRIOR_DRAWS / 2.0;
        let p = 1.0 / (1.0 + (theta[pair.j] - theta[pair.i]).exp());
        let g = score - games * p;
        gradient[pair.i] += g;
        gradient[pair.j] -= g;
        let w = games * p * (1.0 - p);
        hessian[pair.i][pair.i] -= w;
        hessian[pair.j][pair.j] -= w;
        hessian[pair.i][pair.j] += w;
        hessian[pair.j][pair.i] += w;
    }
    (gradient, hessian)
}

/// Inverse of a symmetric positive-definite matrix by Gauss–Jordan elimination with partial
/// pivoting; `None` if it is singular (an agent that played no games).
fn invert(matrix: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = matrix.len();
    let mut a: Vec<Vec<f64>> = matrix
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut r = row.clone();
            r.extend((0..n).map(|j| if i == j { 1.0 } else { 0.0 }));
            r
        })
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        let lead = a[col][col];
        a[col].iter_mut().for_each(|v| *v /= lead);
        for row in 0..n {
            if row != col {
                let factor = a[row][col];
                let pivot_row = a[col].clone();
                a[row]
                    .iter_mut()
                    .zip(pivot_row)
                    .for_each(|(v, p)| *v -= factor * p);
            }
        }
    }
    Some(a.into_iter().map(|row| row[n..].to_vec()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_results_give_equal_ratings() {
        let pairs = [PairScore {
            i: 0,
            j: 1,
            games: 100.0,
            score: 50.0,
        }];
        let r = fit_ratings(2, &pairs, 0);
        assert!(r[1].elo.abs() < 1e-6);
        assert!(r[1].low < -50.0 && r[1].high > 50.0);
        assert_eq!(r[0].low, r[0].elo);
    }

    #[test]
    fn a_76_percent_score_is_about_200_elo() {
        // Elo's expected score at +200 is 1 / (1 + 10^(-0.5)) = 0.7597.
        let pairs = [PairScore {
            i: 1,
            j: 0,
            games: 10_000.0,
            score: 7_597.0,
        }];
        let r = fit_ratings(2, &pairs, 0);
        assert!((r[1].elo - 200.0).abs() < 2.0, "{:?}", r[1]);
        assert!(r[1].high - r[1].low < 30.0);
    }

    #[test]
    fn a_clean_sweep_stays_finite_and_ordered() {
        let pairs = [
            PairScore {
                i: 1,
                j: 0,
                games: 50.0,
                score: 50.0,
            },
            PairScore {
                i: 2,
                j: 0,
                games: 50.0,
                score: 50.0,
            },
            PairScore {
                i: 2,
                j: 1,
                games: 50.0,
                score: 40.0,
            },
        ];
        let r = fit_ratings(3, &pairs, 0);
        assert!(r.iter().all(|x| x.elo.is_finite() && x.low.is_finite()));
        assert!(r[0].elo == 0.0 && r[1].elo > 300.0 && r[2].elo > r[1].elo);
    }

    #[test]
    fn inverts_a_small_matrix() {
        let inv = invert(&[vec![4.0, 1.0], vec![1.0, 3.0]]).unwrap();
        let expected = [[3.0 / 11.0, -1.0 / 11.0], [-1.0 / 11.0, 4.0 / 11.0]];
        for i in 0..2 {
            for j in 0..2 {
                assert!((inv[i][j] - expected[i][j]).abs() < 1e-12);
            }
        }
    }
}
