//! Search settings: the simulation budget, batching, tree reuse and the selection scheme.

/// How a [`BatchedSearch`](crate::BatchedSearch) searches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// Simulations per search: how many leaves (network evaluations or visits to finished
    /// positions) each move gets. The visit counts of a result's root actions sum to this.
    pub simulations: u32,
    /// Leaves each tree may add to one evaluation batch (at least 1). Above 1, in-flight
    /// visits steer later selections away (virtual visits; PUCT adds a virtual loss), which
    /// makes batches larger when there are few games at the price of a slightly weaker
    /// search. With 1, the search is exactly the sequential algorithm.
    pub leaves_per_tree: u32,
    /// Whether [`BatchedSearch::advance`](crate::BatchedSearch::advance) keeps the subtree of
    /// the move played (PUCT only; see [`Scheme::Gumbel`]). Its visits count toward the next
    /// search's budget, so reuse saves evaluations without changing the result's total.
    pub reuse_tree: bool,
    /// Whether the search proves positions (MCTS-Solver): a position whose children's exact
    /// values decide it (one child won for the player to move, or every child known) takes
    /// that exact value, is searched no further, and the move chosen keeps the root's exact
    /// value; a search whose root is proven ends at once. Off, only finished games are exact,
    /// as AlphaZero and Gumbel MuZero search.
    pub solve: bool,
    /// The selection scheme and its parameters.
    pub scheme: Scheme,
}

impl SearchConfig {
    /// AlphaZero-style PUCT search with `simulations` per move and default parameters.
    pub fn puct(simulations: u32) -> Self {
        SearchConfig {
            simulations,
            leaves_per_tree: 1,
            reuse_tree: true,
            solve: false,
            scheme: Scheme::Puct(PuctConfig::default()),
        }
    }

    /// Gumbel MuZero-style search with `simulations` per move and default parameters.
    pub fn gumbel(simulations: u32) -> Self {
        SearchConfig {
            simulations,
            leaves_per_tree: 1,
            reuse_tree: false,
            solve: false,
            scheme: Scheme::Gumbel(GumbelConfig::default()),
        }
    }
}

/// The root and interior selection rules.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scheme {
    /// AlphaZero: PUCT everywhere, Dirichlet noise at the root, the move drawn from the visit
    /// counts at a temperature, the visit distribution as policy target.
    Puct(PuctConfig),
    /// Gumbel MuZero: Gumbel-top-k and sequential halving at the root, deterministic
    /// selection inside the tree, the improved policy as target. Its root statistics must
    /// start from zero for sequential halving, so it never reuses the tree.
    Gumbel(GumbelConfig),
}

/// Parameters of [`Scheme::Puct`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuctConfig {
    /// Exploration weight `c` in `Q(a) + c * P(a) * sqrt(N) / (1 + N(a))`.
    pub c_puct: f32,
    /// Concentration of the Dirichlet noise mixed into the root priors (AlphaZero: 0.3 for
    /// chess, 0.03 for Go; roughly 10 / typical number of legal moves).
    pub dirichlet_alpha: f32,
    /// Weight of the noise in the root priors: `(1 - f) * P + f * noise`. 0 disables it (play).
    pub dirichlet_fraction: f32,
    /// Default temperature of the move choice: the move is drawn with probability
    /// proportional to `N(a)^(1 / T)`; 0 picks the most visited move (ties: higher Q, then
    /// lower action). Each game can override it with
    /// [`BatchedSearch::set_temperature`](crate::BatchedSearch::set_temperature).
    pub temperature: f32,
    /// First-play urgency: an unvisited action's Q is its parent's mean value minus this.
    pub fpu_reduction: f32,
    /// The value counted against an in-flight visit while it waits for evaluation (only with
    /// [`SearchConfig::leaves_per_tree`] above 1).
    pub virtual_loss: f32,
}

impl Default for PuctConfig {
    fn default() -> Self {
        PuctConfig {
            c_puct: 1.25,
            dirichlet_alpha: 0.3,
            dirichlet_fraction: 0.25,
            temperature: 1.0,
            fpu_reduction: 0.0,
            virtual_loss: 1.0,
        }
    }
}

/// Parameters of [`Scheme::Gumbel`], named as in the paper (mctx's names in brackets).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GumbelConfig {
    /// `m`, the number of root actions sampled without replacement by Gumbel-top-k
    /// (`max_num_considered_actions`, default 16).
    pub max_considered_actions: u32,
    /// Scale of the root Gumbel noise (`gumbel_scale`): 1 for self-play, 0 for deterministic
    /// evaluation play.
    pub gumbel_scale: f32,
    /// `c_visit` in `sigma(q) = (c_visit + max_b N(b)) * c_scale * q` (`maxvisit_init`).
    pub c_visit: f32,
    /// `c_scale` in `sigma(q)` (`value_scale`). The paper uses 1.0 with rescaled values; we
    /// use mctx's default 0.1: with 1.0 the rescaled Q of a few visits (spread over 0..=50+)
    /// swamps the prior, so sequential halving drops good moves on one noisy early visit
    /// and the improved-policy targets become near one-hot on noise (chosen in
    /// docs/experiments.md, section 'The search and the gate').
    pub c_scale: f32,
    /// Whether completed Q-values are rescaled to `[0, 1]` by their min and max before
    /// `sigma` (`rescale_values`).
    pub rescale_values: bool,
}

impl Default for GumbelConfig {
    fn default() -> Self {
        GumbelConfig {
            max_considered_actions: 16,
            gumbel_scale: 1.0,
            c_visit: 50.0,
            c_scale: 0.1,
            rescale_values: true,
        }
    }
}
