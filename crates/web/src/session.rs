//! [`Session`]: one variant's game with its history and the computer player's stepwise
//! search; [`AnyGame`] is its object-safe face, so the page switches variants at run time.

use oxo_encode::{Encode, PositionEval, WDL, search_value};
use oxo_play::play_search::INITIAL_SIMULATION_RATE;
use oxo_play::{Budget, NetValue, PlaySearch, PlaySettings, nn_eval_line};
use oxo_rules::{ActionList, DrawValue, Game, Outcome, Player};
use oxo_search::{BatchedSearch, SearchConfig, mix_playouts};
use oxo_variants::{Variant, with_variant};
use rand::SeedableRng;
use rand::rngs::SmallRng;

/// The sizes a page needs to draw a variant and feed its network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Grid width in cells.
    pub width: usize,
    /// Grid height in cells.
    pub height: usize,
    /// Side of the small boards (0: a single board).
    pub block: usize,
    /// Network input planes.
    pub planes: usize,
    /// Actions (policy width).
    pub actions: usize,
}

/// A game in progress of a variant chosen at run time (the methods of `WebGame`).
pub trait AnyGame {
    /// The variant.
    fn variant(&self) -> Variant;
    /// Its sizes.
    fn shape(&self) -> Shape;
    /// Legal moves in notation, in action order.
    fn legal_moves(&self) -> Vec<String>;
    /// Plays a move in notation; the reason when it is not legal (nothing changes then).
    fn play(&mut self, text: &str) -> Result<(), String>;
    /// Takes back the last move; false when there is none.
    fn undo(&mut self) -> bool;
    /// The player to act, `None` once over.
    fn to_move(&self) -> Option<Player>;
    /// `X`, `O` or `draw` once over.
    fn result(&self) -> Option<String>;
    /// Scores or balances `[X, O]`, for the variants that keep them.
    fn scores(&self) -> Option<[i32; 2]>;
    /// The moves so far, in notation.
    fn moves(&self) -> &[String];
    /// The text board.
    fn board(&self) -> String;
    /// The cell of a move, if it has one.
    fn move_cell(&self, text: &str) -> Option<usize>;
    /// Per cell, the winner of its small board (`X`, `O`) or `.` (nested variants; all `.`
    /// elsewhere).
    fn owners(&self) -> String;
    /// The network input of the position.
    fn encode(&self) -> Vec<f32>;
    /// `nn_eval`'s JSON line from the net's raw outputs for the position.
    fn nn_eval(&self, policy: &[f32], wdl: &[f32], score: Option<f32>) -> String;
    /// Starts a search with a model's `play` settings (JSON text) at clock `now_ms`.
    fn search_begin(&mut self, play_json: &str, now_ms: f64) -> Result<(), String>;
    /// Positions waiting for the net.
    fn search_pending(&self) -> usize;
    /// Their network inputs, one after another.
    fn search_inputs(&self) -> Vec<f32>;
    /// The net's outputs for them, at clock `now_ms`.
    fn search_supply(
        &mut self,
        policy: &[f32],
        wdl: &[f32],
        score: &[f32],
        now_ms: f64,
    ) -> Result<(), String>;
    /// The finished search's move.
    fn search_move(&self) -> Option<String>;
}

/// A new game of `variant`.
pub fn new_game(variant: Variant) -> Box<dyn AnyGame> {
    with_variant!(variant, G => Box::new(Session::<G>::new(variant)))
}

/// The computer player's search in progress, with how it values and budgets positions.
struct Search<G: Game> {
    tree: BatchedSearch<G>,
    settings: PlaySearch,
    value: NetValue,
    /// What a draw is worth, as the side searching values it.
    draw: DrawValue,
    /// When the search began (the page's clock, milliseconds).
    started_ms: f64,
}

/// One variant's game: the positions so far (the first is the start), the moves that led
/// to them, and the computer player's search.
pub struct Session<G: Encode> {
    variant: Variant,
    history: Vec<G>,
    moves: Vec<String>,
    search: Option<Search<G>>,
    /// Simulations a second the last timed searches ran (a timed Gumbel search is sized
    /// by it, as the native agent's is).
    simulation_rate: f64,
    /// Draws the playouts' moves.
    rng: SmallRng,
}

impl<G: Encode> Session<G> {
    /// A new game.
    pub fn new(variant: Variant) -> Self {
        Session {
            variant,
            history: vec![G::new()],
            moves: Vec::new(),
            search: None,
            simulation_rate: INITIAL_SIMULATION_RATE,
            rng: SmallRng::seed_from_u64(0),
        }
    }

    /// The current position.
    fn game(&self) -> &G {
        self.history.last().expect("the start is always there")
    }

    /// Whether the search should end at clock `now_ms`: its time is spent.
    fn out_of_time(search: &Search<G>, now_ms: f64) -> bool {
        match search.settings.budget {
            Budget::Millis { ms, .. } => now_ms - search.started_ms >= f64::from(ms),
            Budget::Simulations(_) => false,
        }
    }
}

impl<G: Encode> AnyGame for Session<G> {
    fn variant(&self) -> Variant {
        self.variant
    }

    fn shape(&self) -> Shape {
        Shape {
            width: G::WIDTH,
            height: G::HEIGHT,
            block: G::BLOCK,
            planes: G::PLANES,
            actions: G::NUM_ACTIONS,
        }
    }

    fn legal_moves(&self) -> Vec<String> {
        let game = self.game();
        if game.is_over() {
            return Vec::new();
        }
        let mut legal = ActionList::new();
        game.legal_actions(&mut legal);
        legal.iter().map(|&a| G::format_action(a)).collect()
    }

    fn play(&mut self, text: &str) -> Result<(), String> {
        let action = G::parse_action(text).map_err(|e| e.to_string())?;
        let mut next = *self.game();
        next.try_play(action).map_err(|e| e.to_string())?;
        self.history.push(next);
        self.moves.push(G::format_action(action));
        self.search = None;
        Ok(())
    }

    fn undo(&mut self) -> bool {
        if self.moves.pop().is_none() {
            return false;
        }
        self.history.pop();
        self.search = None;
        true
    }

    fn to_move(&self) -> Option<Player> {
        let game = self.game();
        (!game.is_over()).then(|| game.to_move())
    }

    fn result(&self) -> Option<String> {
        self.game().outcome().map(|outcome| match outcome {
            Outcome::Win(player) => player.to_string(),
            Outcome::Draw => "draw".to_string(),
        })
    }

    fn scores(&self) -> Option<[i32; 2]> {
        self.game().scores()
    }

    fn moves(&self) -> &[String] {
        &self.moves
    }

    fn board(&self) -> String {
        self.game().to_string()
    }

    fn move_cell(&self, text: &str) -> Option<usize> {
        G::action_cell(G::parse_action(text).ok()?)
    }

    fn owners(&self) -> String {
        let game = self.game();
        (0..G::WIDTH * G::HEIGHT)
            .map(|cell| match game.owner(cell) {
                Some(Player::X) => 'X',
                Some(Player::O) => 'O',
                None => '.',
            })
            .collect()
    }

    fn encode(&self) -> Vec<f32> {
        let mut input = vec![0.0; G::INPUT_SIZE];
        self.game().encode(&mut input);
        input
    }

    fn nn_eval(&self, policy: &[f32], wdl: &[f32], score: Option<f32>) -> String {
        nn_eval_line::<G>(&PositionEval::of(self.game(), policy, wdl, score))
    }

    fn search_begin(&mut self, play_json: &str, now_ms: f64) -> Result<(), String> {
        if self.game().is_over() {
            return Err("the game is over".to_string());
        }
        let play = PlaySettings::from_json(play_json)?;
        let settings = play.search()?;
        let value = play.value()?;
        let sims = settings
            .timed_gumbel_simulations(self.simulation_rate)
            .unwrap_or(settings.max_simulations());
        // Each move searches a new tree, so no room for a kept subtree.
        let config = SearchConfig {
            reuse_tree: false,
            ..settings.config(sims)
        };
        let draw = value.draw_for(self.game().to_move());
        let mut tree = BatchedSearch::new(config, &[0]);
        tree.set_draw_value(0, draw);
        tree.set_root(0, *self.game());
        tree.begin();
        self.search = Some(Search {
            tree,
            settings,
            value,
            draw,
            started_ms: now_ms,
        });
        Ok(())
    }

    fn search_pending(&self) -> usize {
        self.search.as_ref().map_or(0, |s| s.tree.pending().len())
    }

    fn search_inputs(&self) -> Vec<f32> {
        let Some(search) = &self.search else {
            return Vec::new();
        };
        let positions = search.tree.pending();
        let mut inputs = vec![0.0; positions.len() * G::INPUT_SIZE];
        for (position, input) in positions.iter().zip(inputs.chunks_mut(G::INPUT_SIZE)) {
            position.encode(input);
        }
        inputs
    }

    fn search_supply(
        &mut self,
        policy: &[f32],
        wdl: &[f32],
        score: &[f32],
        now_ms: f64,
    ) -> Result<(), String> {
        let Some(search) = self.search.as_mut() else {
            return Err("no search in progress".to_string());
        };
        let n = search.tree.pending().len();
        if policy.len() != n * G::NUM_ACTIONS
            || wdl.len() != n * WDL
            || !(score.is_empty() || score.len() == n)
        {
            return Err(format!(
                "outputs for {n} positions need {} policy logits, {} win/draw/loss logits \
                 and {n} scores or none (got {}, {}, {})",
                n * G::NUM_ACTIONS,
                n * WDL,
                policy.len(),
                wdl.len(),
                score.len()
            ));
        }
        let mut values: Vec<f32> = (search.tree.pending().iter().enumerate())
            .map(|(i, position)| {
                let logits = &wdl[i * WDL..(i + 1) * WDL];
                let draw = search.draw.for_player(position.to_move());
                search_value(
                    logits,
                    score.get(i).copied(),
                    search.value.score_utility,
                    draw,
                )
            })
            .collect();
        mix_playouts(
            search.tree.pending(),
            &mut values,
            &search.value.rollouts,
            search.draw,
            &mut self.rng,
        );
        let stop = Self::out_of_time(search, now_ms);
        search.tree.supply(policy, &values, stop);
        // A search has a result once it has finished.
        if let Some(result) = search.tree.result(0) {
            let done: u32 = result.visit_counts.iter().sum();
            let elapsed = (now_ms - search.started_ms) / 1000.0;
            if matches!(search.settings.budget, Budget::Millis { .. }) && elapsed > 0.0 {
                self.simulation_rate = f64::from(done) / elapsed;
            }
        }
        Ok(())
    }

    fn search_move(&self) -> Option<String> {
        let result = self.search.as_ref()?.tree.result(0)?;
        Some(G::format_action(result.action))
    }
}

#[cfg(test)]
mod tests {
    use rand::RngExt;

    use super::*;

    /// Plays random games of every variant through the page's interface: every legal move
    /// plays, an illegal one is refused and changes nothing, undo takes moves back, and the
    /// text board shows every cell, with the mover's mark where a placement went.
    #[test]
    fn every_variant_plays_through_the_page_interface() {
        let mut rng = SmallRng::seed_from_u64(7);
        for variant in Variant::ALL {
            let mut game = new_game(variant);
            let shape = game.shape();
            while game.to_move().is_some() {
                let legal = game.legal_moves();
                let board = game.board();
                assert!(game.play("Z99").is_err(), "{variant}");
                assert_eq!(
                    game.board(),
                    board,
                    "{variant}: a refused move changed nothing"
                );
                let choice = legal[rng.random_range(0..legal.len())].clone();
                game.play(&choice).unwrap();
                let glyphs = crate::grid_glyphs(&game.board(), shape.width, shape.height);
                assert!(!glyphs.contains(&'?'), "{variant}: {}", game.board());
                assert_eq!(
                    game.encode().len(),
                    shape.planes * shape.width * shape.height
                );
            }
            assert!(game.result().is_some() && game.legal_moves().is_empty());
            let played = game.moves().len();
            assert!(game.undo());
            assert!(game.to_move().is_some() && game.moves().len() == played - 1);
        }
    }

    /// The stepwise search, driven as the page drives it with a stand-in for the net (flat
    /// logits, a drawn position), finishes within its simulations or its time and names a
    /// legal move; outputs of the wrong length are refused.
    #[test]
    fn the_search_runs_stepwise_to_a_legal_move() {
        for (variant, play) in [
            (
                Variant::Ultimate,
                r#"{"search":"ms=400,rescale=0,considered=0","score_utility":0.0,"rollouts":4,"rollout_weight":0.5,"rollout_policy":"uniform"}"#,
            ),
            (
                Variant::XAndO,
                r#"{"search":"search=puct,sims=50","score_utility":1.0,"rollouts":0,"rollout_weight":0.0,"rollout_policy":"uniform"}"#,
            ),
        ] {
            let mut game = new_game(variant);
            let shape = game.shape();
            game.search_begin(play, 0.0).unwrap();
            let mut clock = 0.0;
            let mut rounds = 0;
            while game.search_pending() > 0 {
                let n = game.search_pending();
                assert_eq!(
                    game.search_inputs().len(),
                    n * shape.planes * shape.width * shape.height
                );
                assert!(
                    game.search_supply(&[0.0; 3], &[0.0; 3], &[], clock)
                        .is_err()
                );
                let policy = vec![0.0; n * shape.actions];
                clock += 10.0;
                game.search_supply(&policy, &vec![0.0; n * WDL], &vec![0.0; n], clock)
                    .unwrap();
                rounds += 1;
            }
            let chosen = game.search_move().expect("a finished search has a move");
            assert!(game.legal_moves().contains(&chosen), "{variant}: {chosen}");
            assert!(rounds <= 51, "{variant}: {rounds} rounds");
            game.play(&chosen).unwrap();
            assert_eq!(game.search_move(), None, "a move ends the search");
        }
    }
}
