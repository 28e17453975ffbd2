//! [`RolloutEvaluator`]: random-playout values mixed into another evaluator's values.

use oxo_rules::{DrawValue, Game, PlayoutPolicy, playout};
use rand::rngs::SmallRng;

use crate::evaluator::Evaluator;

/// How many playouts each evaluated position gets, how they pick their moves, and their
/// weight in its value.
///
/// This is AlphaGo's leaf evaluation, `(1 - weight) * network + weight * playouts`. A random
/// playout costs about a microsecond, a network evaluation on the CPU hundreds, so a few
/// playouts per leaf are nearly free. They carry what a young network does not know yet:
/// with them an untrained net's self-play already plays like a small UCT search instead of
/// at random, and the games it learns from are better from the first generation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RolloutConfig {
    /// Random playouts per evaluated position; 0 turns the mixing off.
    pub playouts: u32,
    /// Weight of the playouts' mean outcome in the value, in `[0, 1]`.
    pub weight: f32,
    /// How the playouts pick their moves: uniformly, or taking small-board wins at once.
    pub policy: PlayoutPolicy,
}

impl RolloutConfig {
    /// The most playouts per position a configuration may ask for.
    pub const MAX_PLAYOUTS: u32 = 1000;

    /// No playouts: the inner evaluator's values unchanged.
    pub const OFF: RolloutConfig = RolloutConfig {
        playouts: 0,
        weight: 0.0,
        policy: PlayoutPolicy::Uniform,
    };

    /// Whether this configuration changes any value.
    pub fn is_on(&self) -> bool {
        self.playouts > 0 && self.weight > 0.0
    }
}

/// Wraps an evaluator: its policy as it is, its value mixed with the mean outcome of
/// [`RolloutConfig::playouts`] playouts from the position.
///
/// The random generator is borrowed, so that an agent can keep one across its moves and a
/// self-play worker one across its games: results depend only on the seeds and the order of
/// evaluations, never on timing.
pub struct RolloutEvaluator<'r, E> {
    /// The evaluator whose values are mixed (a network, usually).
    pub inner: E,
    config: RolloutConfig,
    /// What a playout that ends drawn is worth.
    draw: DrawValue,
    rng: &'r mut SmallRng,
}

impl<'r, E> RolloutEvaluator<'r, E> {
    /// `inner` with `config`'s playouts, drawing their moves from `rng`.
    /// Their draws are worth 0 ([`DrawValue::NEUTRAL`]).
    pub fn new(inner: E, config: RolloutConfig, rng: &'r mut SmallRng) -> Self {
        RolloutEvaluator {
            inner,
            config,
            draw: DrawValue::NEUTRAL,
            rng,
        }
    }

    /// The same evaluator with its playouts' draws worth what `draw` says (the inner
    /// evaluator is told separately).
    pub fn with_draw_value(mut self, draw: DrawValue) -> Self {
        self.draw = draw;
        self
    }
}

impl<G: Game, E: Evaluator<G>> Evaluator<G> for RolloutEvaluator<'_, E> {
    fn evaluate(&mut self, positions: &[G], policy_logits: &mut [f32], values: &mut [f32]) {
        self.inner.evaluate(positions, policy_logits, values);
        mix_playouts(positions, values, &self.config, self.draw, self.rng);
    }
}

/// Mixes into each position's value the mean outcome of `config`'s playouts from it (drawn
/// from `rng`, a draw worth what `draw` says), `(1 - weight) * value + weight * playouts`:
/// what [`RolloutEvaluator`] does after its inner evaluator, for callers that get the inner
/// values some other way (a web page's network). Nothing changes when `config` is off.
pub fn mix_playouts<G: Game>(
    positions: &[G],
    values: &mut [f32],
    config: &RolloutConfig,
    draw: DrawValue,
    rng: &mut SmallRng,
) {
    if !config.is_on() {
        return;
    }
    let weight = config.weight.clamp(0.0, 1.0);
    for (position, value) in positions.iter().zip(values.iter_mut()) {
        let mover = position.to_move();
        let total: f32 = (0..config.playouts)
            .map(|_| {
                let (end, _) = playout(*position, config.policy, rng);
                end.outcome()
                    .expect("a playout ends the game")
                    .value_with_draw(mover, draw)
            })
            .sum();
        let playouts = total / config.playouts as f32;
        *value = (1.0 - weight) * *value + weight * playouts;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BatchedSearch, GumbelConfig, Scheme, SearchConfig, UniformEvaluator};
    use oxo_variants::tictactoe::TicTacToe;
    use rand::SeedableRng;

    fn position(moves: &[u16]) -> TicTacToe {
        let mut game = TicTacToe::default();
        for &m in moves {
            game.play(m);
        }
        game
    }

    fn evaluate(config: RolloutConfig, game: TicTacToe, inner_value: f32) -> f32 {
        /// A constant value, to see what the mixing does to it.
        struct Constant(f32);
        impl Evaluator<TicTacToe> for Constant {
            fn evaluate(&mut self, _: &[TicTacToe], logits: &mut [f32], values: &mut [f32]) {
                logits.fill(0.0);
                values.fill(self.0);
            }
        }
        let mut rng = SmallRng::seed_from_u64(7);
        let mut evaluator = RolloutEvaluator::new(Constant(inner_value), config, &mut rng);
        let mut logits = vec![0.0; 9];
        let mut values = vec![0.0];
        evaluator.evaluate(&[game], &mut logits, &mut values);
        values[0]
    }

    /// Squares 0..9, X moving first:  X O X / X O O / O X _ : X to move fills 8 and draws.
    const LAST_MOVE_DRAWS: [u16; 8] = [0, 1, 2, 4, 3, 5, 7, 6];
    /// X: 0, 3, 4; O: 1, 2, 7; X to move, and each of the empty squares 5, 6 and 8 wins.
    const X_WINS_NOW: [u16; 6] = [0, 1, 3, 2, 4, 7];

    #[test]
    fn forced_results_come_out_exactly() {
        let all = RolloutConfig {
            playouts: 16,
            weight: 1.0,
            policy: PlayoutPolicy::Uniform,
        };
        // One square left and it draws: the playouts say 0 whatever the inner value.
        assert_eq!(evaluate(all, position(&LAST_MOVE_DRAWS), 0.9), 0.0);
        // Half weight: halfway between the inner value and the playouts.
        let half = RolloutConfig {
            playouts: 16,
            weight: 0.5,
            policy: PlayoutPolicy::Uniform,
        };
        assert_eq!(evaluate(half, position(&LAST_MOVE_DRAWS), 0.8), 0.4);
        // A draw worth -0.5 to X, the player to move: the playouts say so.
        let mut rng = SmallRng::seed_from_u64(7);
        let contempt = DrawValue {
            side: oxo_rules::Player::X,
            value: -0.5,
        };
        let mut values = [0.9];
        mix_playouts(
            &[position(&LAST_MOVE_DRAWS)],
            &mut values,
            &all,
            contempt,
            &mut rng,
        );
        assert_eq!(values[0], -0.5);
        // Off: the inner value untouched.
        assert_eq!(
            evaluate(RolloutConfig::OFF, position(&X_WINS_NOW), 0.3),
            0.3
        );
    }

    /// X: 0, 1; O: 3, 4; X to move: square 2 wins now, and O threatens 5.
    const X_TO_TAKE_THE_WIN: [u16; 4] = [0, 3, 1, 4];

    #[test]
    fn tactical_playouts_take_a_win_at_once() {
        let game = position(&X_TO_TAKE_THE_WIN);
        let config = |policy| RolloutConfig {
            playouts: 64,
            weight: 1.0,
            policy,
        };
        assert_eq!(evaluate(config(PlayoutPolicy::Tactical), game, 0.0), 1.0);
        let uniform = evaluate(config(PlayoutPolicy::Uniform), game, 0.0);
        assert!(
            uniform < 0.9,
            "uniform playouts miss the win often: {uniform}"
        );
    }

    #[test]
    fn playout_values_are_from_the_view_of_the_player_to_move() {
        // Every move wins for X, the player to move: the playouts say +1 for X.
        let game = position(&X_WINS_NOW);
        assert_eq!(game.to_move(), oxo_rules::Player::X);
        let all = RolloutConfig {
            playouts: 8,
            weight: 1.0,
            policy: PlayoutPolicy::Uniform,
        };
        assert_eq!(evaluate(all, game, -1.0), 1.0);
    }

    /// The best move of a knowledge-free Gumbel search of `simulations` at `game`, with
    /// `rollouts` mixed into the uniform evaluator's zero values.
    fn best_move(game: TicTacToe, simulations: u32, rollouts: RolloutConfig) -> u16 {
        let config = SearchConfig {
            scheme: Scheme::Gumbel(GumbelConfig {
                gumbel_scale: 0.0,
                ..GumbelConfig::default()
            }),
            ..SearchConfig::gumbel(simulations)
        };
        let mut search = BatchedSearch::<TicTacToe>::new(config, &[0]);
        search.set_root(0, game);
        let mut rng = SmallRng::seed_from_u64(1);
        search.run(&mut RolloutEvaluator::new(
            UniformEvaluator,
            rollouts,
            &mut rng,
        ));
        search.result(0).unwrap().action
    }

    /// Playouts are knowledge a search without a network lacks: on the empty board they
    /// rate the centre best (X wins most random games that start there), where the tree of a
    /// small search, all of whose leaves are worth 0, cannot tell the moves apart.
    #[test]
    fn playouts_guide_a_knowledge_free_search() {
        let rollouts = RolloutConfig {
            playouts: 64,
            weight: 1.0,
            policy: PlayoutPolicy::Uniform,
        };
        let empty = TicTacToe::default();
        assert_ne!(best_move(empty, 32, RolloutConfig::OFF), 4);
        assert_eq!(best_move(empty, 32, rollouts), 4);
    }
}
