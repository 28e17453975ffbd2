//! The run configuration: one TOML file per variant (`configs/VARIANT.toml`), every field
//! documented and validated with an error that names the field and its allowed range.

use std::fmt;
use std::path::Path;

use oxo_engine::EngineKind;
use oxo_nn::{NetConfig, TrainConfig};
use oxo_rules::{Action, Game, Player, PlayoutPolicy};
use oxo_search::{GumbelConfig, PuctConfig, RolloutConfig, Scheme, SearchConfig};
use serde::{Deserialize, Serialize};

use oxo_play::NetValue;

/// Everything a training run needs to know, as read from its TOML file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunConfig {
    /// The variant trained (`tictactoe`, `ultimate`, ...).
    pub variant: String,
    /// Seed of every random choice of the run (network initialisation excepted).
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Generations to run (self-play, training, gating each); 0 runs until `--minutes` ends it.
    #[serde(default)]
    pub generations: u64,
    /// What evaluates the network in self-play, gating and ratings: `onnxruntime` (the
    /// default; burn, with one message, where its library is missing), `burn`, or
    /// `onnxruntime-cuda` (an NVIDIA GPU). Training always runs on burn.
    #[serde(default)]
    pub engine: EngineKind,
    /// The network's size.
    pub net: NetConfig,
    /// Self-play settings.
    pub selfplay: SelfPlayConfig,
    /// Training settings.
    pub train: TrainSection,
    /// Gating (promotion) and rating settings.
    pub gate: GateConfig,
}

fn default_seed() -> u64 {
    1
}

pub use oxo_play::SchemeName;
use oxo_play::play_search::PlaySearch;

/// The most games `selfplay.parallel_games` (and `oxo bench selfplay --parallel-games`) may
/// search at once.
pub const MAX_PARALLEL_GAMES: usize = 4096;

/// How self-play games are generated.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SelfPlayConfig {
    /// Games per generation (1..=1000000).
    pub games_per_generation: usize,
    /// Games searched at once, over all workers; each worker's games share one network
    /// call per round (1..=4096).
    pub parallel_games: usize,
    /// Threads that play self-play and gating games, each on one core with its own network
    /// calls (0..=256); 0, the default, is one per core.
    #[serde(default)]
    pub workers: usize,
    /// Search scheme: `gumbel` (default) or `puct`.
    #[serde(default = "default_scheme")]
    pub scheme: SchemeName,
    /// Simulations of a full search, whose improved policy is a training target (1..=100000).
    pub simulations_full: u32,
    /// Simulations of a fast search, not a policy target (1..=simulations_full).
    pub simulations_fast: u32,
    /// Probability that a move gets a full search (KataGo's playout cap randomisation),
    /// in (0, 1]; 1 disables the randomisation.
    pub full_search_prob: f64,
    /// The same probability for moves of the second player (O), in (0, 1]; unset: O's
    /// moves use `full_search_prob` like X's. Only full searches are training samples, so
    /// this sets O's share of the samples and of the stronger searches, for variants where
    /// the second player's play is what lags (adjacency, where moving first wins most
    /// games between equals).
    #[serde(default)]
    pub full_search_prob_o: Option<f64>,
    /// Leaves each tree adds to one network batch (1..=64).
    #[serde(default = "one")]
    pub leaves_per_tree: u32,
    /// Gumbel: root actions considered by sequential halving (1..=1024).
    #[serde(default = "default_considered")]
    pub gumbel_considered: u32,
    /// Gumbel: scale of the root Gumbel noise, the exploration of self-play (0..=10).
    #[serde(default = "one_f32")]
    pub gumbel_scale: f32,
    /// Gumbel: whether completed Q-values are rescaled to [0, 1] by their min and max
    /// (mctx's `rescale_values`; the default, true). Off, interior nodes keep trying other
    /// replies instead of settling on the first one slightly above the node's value (compared
    /// at play time in docs/experiments.md, section 'Search at play time').
    #[serde(default = "yes")]
    pub gumbel_rescale: bool,
    /// Gumbel: moves from the start (random opening moves included) whose searches add the
    /// root Gumbel noise (0..=1000; the default, 1000, is every move). Later moves are the
    /// search's best, as AlphaZero plays after its temperature moves, so the games' results,
    /// the value targets, are decided by play rather than by exploration noise.
    #[serde(default = "max_moves")]
    pub gumbel_noise_moves: usize,
    /// Probability that a self-play game opens with random moves (0..=1; KataGo's opening
    /// diversity): without it self-play can settle into one line and the net never learns the
    /// positions that other openings lead to.
    #[serde(default)]
    pub random_opening_prob: f64,
    /// Most random opening moves (1 to this many, uniformly; 0..=1000). They are no training
    /// targets.
    #[serde(default)]
    pub random_opening_plies: usize,
    /// Recorded games that self-play may start inside (KataGo's start positions from real
    /// games, so the net learns the positions where it lost to other players): each is one
    /// game's moves from the start position in `docs/RULES.md` notation, separated by spaces, as in
    /// the `moves` of `oxo arena`'s result files (`scripts/start_games.py` picks them out).
    /// Every move is checked legal when the config is read, and the games are part of the
    /// config, so a run records them and resumes with them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub start_games: Vec<String>,
    /// Probability that a self-play game starts inside one of `start_games` (0..=1; 0, the
    /// default, never): the game, chosen uniformly, is replayed to a ply chosen uniformly
    /// (stopping short of a move that would end it), with no training targets for the
    /// replayed moves, and self-play goes on from there. Other games start as
    /// `random_opening_prob` says.
    #[serde(default)]
    pub start_game_prob: f64,
    /// Agents that play one side of a share of the self-play games (`opponent_prob`), as
    /// `oxo arena` writes them: handcrafted (`alphabeta:depth=3`) or nets (`net:path=M.bin`,
    /// an earlier model), each game's opponent chosen uniformly. Self-play alone shows the
    /// net only its own play; an opponent that plays otherwise shows it the positions where
    /// its side goes wrong against other players. The net's moves in those games are searched
    /// and recorded as in any self-play game; the opponent's moves are no training targets.
    /// Each agent is built when the run starts, so a bad one is refused then.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opponents: Vec<String>,
    /// Probability that a self-play game is played against one of `opponents` (0..=1; 0, the
    /// default, never).
    #[serde(default)]
    pub opponent_prob: f64,
    /// The side the opponent plays: `x`, `o`, or `either` (the default: each with
    /// probability 1/2).
    #[serde(default)]
    pub opponent_plays: OpponentSide,
    /// Random playouts mixed into every network value (0..=1000; 0, the default, turns them
    /// off), in self-play and in the gate's and the rating's games alike, so the net is
    /// always judged as it plays. A playout costs about a microsecond, a network evaluation
    /// hundreds, so they are nearly free, and they carry what a young net does not know yet.
    #[serde(default)]
    pub rollouts: u32,
    /// Weight of the playouts' mean outcome in a value, the net's being `1 - rollout_weight`
    /// (0..=1; AlphaGo's lambda).
    #[serde(default = "half")]
    pub rollout_weight: f32,
    /// How the playouts pick their moves: `uniform` (the default) or `tactical`, which takes
    /// a move that wins a small board at once when there is one (ultimate, extreme; tictactoe:
    /// a line). A run of extreme trained with tactical playouts learned no more than one with
    /// uniform ones (docs/experiments.md, section 'extreme'), so no shipped config sets it.
    #[serde(default)]
    pub rollout_policy: PlayoutPolicy,
    /// The score head's share of every network value (0..=1; 0, the default, uses the
    /// win/draw/loss head alone), in self-play, gating and rating alike: the value is
    /// `(1 - score_utility) * (P(win) - P(loss)) + score_utility * margin`, the predicted
    /// margin in the score target's scale clipped to [-1, 1]. KataGo adds a score utility
    /// the same way. Needs `net.score_head`.
    #[serde(default)]
    pub score_utility: f32,
    /// Generations at the start of a run whose self-play does without the network
    /// (0..=100000; 0, the default, turns this off): every searched position gets uniform
    /// priors and the mean of `rollouts` random playouts as its value (plain Monte Carlo
    /// tree search, which knows only the rules), every move is a full search of
    /// `bootstrap_simulations`, and the net learns to imitate those searches (expert
    /// iteration). A playout costs about a microsecond and a net evaluation hundreds, so
    /// these searches can be far larger than the net's and still cost less. Their
    /// candidates are promoted without gating games, as the best net plays no part in them.
    /// Needs `rollouts` > 0.
    #[serde(default)]
    pub bootstrap_generations: u64,
    /// Simulations of each bootstrap search (1..=100000), all legal root moves considered.
    #[serde(default = "default_bootstrap_simulations")]
    pub bootstrap_simulations: u32,
    /// PUCT: moves from the start played at temperature 1, later ones at 0 (0..=1000).
    #[serde(default)]
    pub temperature_moves: usize,
    /// PUCT: Dirichlet noise concentration at the root of full searches (> 0, <= 10).
    #[serde(default = "default_alpha")]
    pub dirichlet_alpha: f32,
}

/// The side `selfplay.opponents` play in their games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OpponentSide {
    /// X, the first player.
    X,
    /// O, the second player.
    O,
    /// Either, each with probability 1/2.
    #[default]
    Either,
}

impl SelfPlayConfig {
    /// Moves from the start searched at temperature 1, later ones at 0: PUCT's
    /// `temperature_moves`, Gumbel's `gumbel_noise_moves`.
    pub fn exploring_moves(&self) -> usize {
        match self.scheme {
            SchemeName::Puct => self.temperature_moves,
            SchemeName::Gumbel => self.gumbel_noise_moves,
        }
    }

    /// The probability that a move of `mover` gets a full search: `full_search_prob_o` for
    /// O where it is set, else `full_search_prob`.
    pub fn full_search_prob_for(&self, mover: Player) -> f64 {
        match (mover, self.full_search_prob_o) {
            (Player::O, Some(prob)) => prob,
            _ => self.full_search_prob,
        }
    }

    /// Whether `generation` (counted from 1) is a bootstrap generation, whose self-play
    /// searches without the network.
    pub fn bootstraps(&self, generation: u64) -> bool {
        generation <= self.bootstrap_generations
    }

    /// `start_games` as `G`'s actions, each move checked legal in turn; an error names the
    /// game (`selfplay.start_games[i]`, counted from 0), the move (counted from 1) and why.
    pub fn start_lines<G: Game>(&self) -> Result<Vec<Vec<Action>>, ConfigError> {
        let parse = |(i, line): (usize, &String)| {
            let invalid = |message: String| ConfigError {
                field: format!("selfplay.start_games[{i}]"),
                message,
            };
            let mut game = G::new();
            let mut actions = Vec::new();
            for (ply, text) in line.split_whitespace().enumerate() {
                let why = |e: String| invalid(format!("move {} '{text}': {e}", ply + 1));
                let action = G::parse_action(text).map_err(|e| why(e.to_string()))?;
                game.try_play(action).map_err(|e| why(e.to_string()))?;
                actions.push(action);
            }
            if actions.is_empty() {
                return Err(invalid(
                    "no moves: write one game's moves separated by spaces".into(),
                ));
            }
            Ok(actions)
        };
        self.start_games.iter().enumerate().map(parse).collect()
    }
}

fn default_scheme() -> SchemeName {
    SchemeName::Gumbel
}
fn one() -> u32 {
    1
}
fn yes() -> bool {
    true
}

fn one_f32() -> f32 {
    1.0
}
fn max_moves() -> usize {
    1000
}
fn half() -> f32 {
    0.5
}
fn default_considered() -> u32 {
    16
}
fn default_bootstrap_simulations() -> u32 {
    512
}
fn default_alpha() -> f32 {
    0.3
}

/// How the network is trained each generation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainSection {
    /// Positions per training step (1..=65536).
    pub batch_size: usize,
    /// Training steps per generation (1..=1000000); in a store run, per
    /// `selfplay.games_per_generation` new games, a claim of more games training
    /// proportionally more (the training budget per new game).
    pub steps_per_generation: usize,
    /// AdamW learning rate, in (0, 1].
    pub learning_rate: f64,
    /// AdamW decoupled weight decay (0..=1).
    #[serde(default = "default_weight_decay")]
    pub weight_decay: f32,
    /// Weight of the score-margin loss (0..=100; used with `net.score_head`).
    #[serde(default = "one_f32")]
    pub score_weight: f32,
    /// Weight of the cell head's loss (0..=100; used with `net.ownership_head`): the squared
    /// error of its prediction for each cell ([`TrainSection::cell_target`]), averaged over
    /// the cells.
    #[serde(default = "one_f32")]
    pub ownership_weight: f32,
    /// What the cell head (`net.ownership_head`) learns for each cell: `owner` (the
    /// default), its final owner, in the variants with small boards (ultimate, extreme);
    /// `points`, in the scoring variants, the score margin the moves still to come will make
    /// there, from the mover's view (a move's points for its mover, less those it gives the
    /// other side), divided by `cell_points_scale` and clipped to [-1, 1]. The cells sum to
    /// the rest of the game's margin: one label per cell, where the score target gives one
    /// per game (KataGo's ownership and score targets in one).
    #[serde(default)]
    pub cell_target: CellTarget,
    /// The points target's divisor (0 < scale <= 1000; default 16: adjacency's placements
    /// score 1 to 75, mostly under 16).
    #[serde(default = "default_cell_points_scale")]
    pub cell_points_scale: f32,
    /// Score margins are divided by this (then clipped to [-1, 1]) to make the score target
    /// (> 0).
    #[serde(default = "one_f32")]
    pub score_scale: f32,
    /// The score target, from the winner's view, of a game won outright by an event its
    /// scores do not count (extreme's big-board pattern, paytoplay's line), in (0, 1]; the
    /// loser's is its negative. Absent: such a game's target is its score margin like any
    /// other's, which can favour the loser (an extreme winner with fewer board points).
    /// With the score head as the search's value (`selfplay.score_utility`), 1 makes an
    /// outright win the best result there is; in extreme it took the dense margin away from
    /// most games and was not kept (docs/experiments.md, section 'extreme', "A score target
    /// that counts a big-board pattern as the largest margin"), so no shipped config sets it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outright_win_score: Option<f32>,
    /// How much of the value target is the search's root value rather than the game's
    /// result (0..=1; default 0): the WDL target is `(1 - w) * onehot(result) + w * wdl(q)`.
    /// The result of a long game is a noisy label for its early positions; the search value
    /// is a low-variance one, biased by the net that searched ("Lessons from AlphaZero", part
    /// 4: the mean of the two).
    #[serde(default)]
    pub value_search_weight: f32,
    /// How much of the score target is the search's root value rather than the game's final
    /// margin (0..=1; default 0): `(1 - w) * margin / score_scale + w * q`. The counterpart of
    /// `value_search_weight` for a score head that is the search's whole value
    /// (`selfplay.score_utility = 1` and no playouts, so `q` is a predicted margin on the
    /// same scale; other settings are refused): one game's margin is a noisy label for its
    /// early positions, the search's a smoother one.
    /// Tried in adjacency and not kept (docs/experiments.md, section 'xando and adjacency', "A
    /// score target half from the search"), so no shipped config sets it.
    #[serde(default)]
    pub score_search_weight: f32,
    /// Replay window: the smallest number of most recent positions it holds (1..).
    pub min_window: usize,
    /// Replay window: the largest number of positions it holds (>= min_window).
    pub max_window: usize,
    /// Replay window growth: window = min(max_window, max(min_window, window_factor *
    /// total_positions^window_exponent)) (> 0).
    #[serde(default = "default_window_factor")]
    pub window_factor: f64,
    /// Exponent of the window's growth with the total positions played (0..=1; KataGo 0.75).
    #[serde(default = "default_window_exponent")]
    pub window_exponent: f64,
}

fn default_weight_decay() -> f32 {
    1e-4
}
fn default_window_factor() -> f64 {
    4.0
}
fn default_window_exponent() -> f64 {
    0.75
}

/// How a candidate is compared with the best net, and how the best net is rated.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GateConfig {
    /// `sprt` (sequential test with early stop, then the threshold at `max_games`) or
    /// `threshold` (play `max_games`, promote on a score of at least `threshold`); `always`
    /// promotes every candidate.
    #[serde(default = "default_gate_mode")]
    pub mode: GateMode,
    /// Most gating games (even: paired, both colours from each opening; 2..=100000).
    pub max_games: usize,
    /// Simulations per move of both nets in gating games (1..=100000).
    pub simulations: u32,
    /// Random opening moves of each gating pair, for variety (0..=50).
    #[serde(default)]
    pub opening_plies: usize,
    /// Score (wins plus half draws over games) the candidate needs when the test is
    /// undecided after `max_games` (0..=1).
    #[serde(default = "default_threshold")]
    pub threshold: f64,
    /// SPRT null hypothesis: the candidate's Elo gain is this (usually 0).
    #[serde(default)]
    pub elo0: f64,
    /// SPRT alternative: the candidate's Elo gain is this (> elo0).
    #[serde(default = "default_elo1")]
    pub elo1: f64,
    /// SPRT false-promotion rate, in (0, 0.49] (default 0.05).
    #[serde(default = "default_error")]
    pub alpha: f64,
    /// SPRT false-rejection rate, in (0, 0.49] (default 0.05).
    #[serde(default = "default_error")]
    pub beta: f64,
    /// Rate the best net against handcrafted agents every this many generations (0: never).
    #[serde(default)]
    pub rate_every: u64,
    /// Games per pairing of the rating tournament (2..=10000).
    #[serde(default = "default_rate_games")]
    pub rate_games: usize,
    /// Agents the best net is rated against (any agent spec, a `net:` one naming an earlier
    /// model of this run included); the first is the Elo anchor.
    #[serde(default = "default_rate_agents")]
    pub rate_agents: Vec<String>,
}

/// What the cell head learns for each cell ([`TrainSection::cell_target`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CellTarget {
    /// The cell's owner at the end of the game (variants with small boards).
    #[default]
    Owner,
    /// The margin the rest of the game scores on the cell (scoring variants).
    Points,
}

fn default_cell_points_scale() -> f32 {
    16.0
}

/// The promotion rule of gating.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GateMode {
    /// Sequential probability ratio test, early stop; threshold when undecided.
    Sprt,
    /// Fixed number of games and a score threshold.
    Threshold,
    /// Promote every candidate (no gating games).
    Always,
}

fn default_gate_mode() -> GateMode {
    GateMode::Sprt
}
fn default_threshold() -> f64 {
    0.55
}
fn default_elo1() -> f64 {
    35.0
}
fn default_error() -> f64 {
    0.05
}
fn default_rate_games() -> usize {
    20
}
fn default_rate_agents() -> Vec<String> {
    vec!["random".into(), "greedy".into(), "alphabeta:depth=2".into()]
}

/// A configuration that cannot run: which field, what it holds, what is allowed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("config: {field}: {message}")]
pub struct ConfigError {
    /// The field, as a TOML path (`selfplay.parallel_games`), or the file.
    pub field: String,
    /// What is wrong and what would be accepted.
    pub message: String,
}

/// Checks that `value` lies in `low..=high`, naming `field` otherwise.
fn range<T: PartialOrd + fmt::Display>(
    field: &str,
    value: T,
    low: T,
    high: T,
) -> Result<(), ConfigError> {
    if value >= low && value <= high {
        Ok(())
    } else {
        Err(ConfigError {
            field: field.into(),
            message: format!("{value} is out of range: allowed {low}..={high}"),
        })
    }
}

/// Checks that `value` is finite and lies strictly above `low` and at most `high`.
fn open_range(field: &str, value: f64, low: f64, high: f64) -> Result<(), ConfigError> {
    if value.is_finite() && value > low && value <= high {
        Ok(())
    } else {
        Err(ConfigError {
            field: field.into(),
            message: format!("{value} is out of range: allowed above {low}, at most {high}"),
        })
    }
}

impl RunConfig {
    /// Parses a configuration from TOML text and validates it.
    pub fn from_toml(text: &str) -> Result<RunConfig, ConfigError> {
        let config: RunConfig = toml::from_str(text).map_err(|e| ConfigError {
            field: "toml".into(),
            message: e.to_string(),
        })?;
        config.validate()?;
        Ok(config)
    }

    /// Reads and validates the configuration file at `path`.
    pub fn load(path: &Path) -> Result<RunConfig, ConfigError> {
        RunConfig::load_with_text(path).map(|(config, _)| config)
    }

    /// [`RunConfig::load`], with the file's text as read (comments included).
    pub fn load_with_text(path: &Path) -> Result<(RunConfig, String), ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
            field: path.display().to_string(),
            message: format!("cannot read: {e}"),
        })?;
        let config = RunConfig::from_toml(&text).map_err(|mut e| {
            e.field = format!("{}: {}", path.display(), e.field);
            e
        })?;
        Ok((config, text))
    }

    /// The text of `variant`'s default configuration (`configs/VARIANT.toml`, built into the
    /// binary so that `oxo train` runs from any directory), comments included.
    pub fn default_text(variant: oxo_variants::Variant) -> &'static str {
        variant.default_config()
    }

    /// `variant`'s default configuration ([`RunConfig::default_text`]).
    pub fn default_for(variant: oxo_variants::Variant) -> RunConfig {
        RunConfig::from_toml(RunConfig::default_text(variant))
            .expect("the built-in configs are valid (tested)")
    }

    /// The configuration as TOML text.
    pub fn to_toml(&self) -> String {
        toml::to_string_pretty(self).expect("run configs serialise")
    }

    /// Checks every field against its allowed range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let Ok(variant) = self.variant.parse::<oxo_variants::Variant>() else {
            return Err(ConfigError {
                field: "variant".into(),
                message: format!(
                    "unknown variant '{}': allowed {}",
                    self.variant,
                    oxo_variants::Variant::names()
                ),
            });
        };
        self.check_cell_target(variant)?;
        let shape = oxo_variants::with_variant!(variant, G => oxo_nn::NetShape::of::<G>());
        if !shape.fits_patch(self.net.patch) {
            return Err(ConfigError {
                field: "net.patch".into(),
                message: format!(
                    "{variant}'s {}x{} grid cannot be cut into {p}x{p} patches with a logit \
                     for every action: use 1 (a vector per cell), or the side of its small \
                     boards (ultimate 3, extreme 4)",
                    shape.height,
                    shape.width,
                    p = self.net.patch
                ),
            });
        }
        if self.net.patch > 1 && self.net.ownership_head {
            return Err(ConfigError {
                field: "net.ownership_head".into(),
                message: "the ownership head needs a vector per cell: set it to false, or \
                          net.patch to 1"
                    .into(),
            });
        }
        range("net.blocks", self.net.blocks, 0, oxo_nn::MAX_BLOCKS)?;
        range("net.channels", self.net.channels, 1, 1024)?;
        range("net.policy_channels", self.net.policy_channels, 1, 256)?;
        range("net.value_channels", self.net.value_channels, 1, 256)?;
        range("net.value_hidden", self.net.value_hidden, 1, 4096)?;
        let s = &self.selfplay;
        range(
            "selfplay.games_per_generation",
            s.games_per_generation,
            1,
            1_000_000,
        )?;
        range(
            "selfplay.parallel_games",
            s.parallel_games,
            1,
            MAX_PARALLEL_GAMES,
        )?;
        range("selfplay.workers", s.workers, 0, 256)?;
        range("selfplay.simulations_full", s.simulations_full, 1, 100_000)?;
        range(
            "selfplay.simulations_fast",
            s.simulations_fast,
            1,
            s.simulations_full,
        )?;
        open_range("selfplay.full_search_prob", s.full_search_prob, 0.0, 1.0)?;
        if let Some(prob) = s.full_search_prob_o {
            open_range("selfplay.full_search_prob_o", prob, 0.0, 1.0)?;
        }
        range("selfplay.leaves_per_tree", s.leaves_per_tree, 1, 64)?;
        range("selfplay.gumbel_considered", s.gumbel_considered, 1, 1024)?;
        range("selfplay.gumbel_scale", s.gumbel_scale, 0.0, 10.0)?;
        range("selfplay.gumbel_noise_moves", s.gumbel_noise_moves, 0, 1000)?;
        range("selfplay.temperature_moves", s.temperature_moves, 0, 1000)?;
        range(
            "selfplay.rollouts",
            s.rollouts,
            0,
            RolloutConfig::MAX_PLAYOUTS,
        )?;
        range("selfplay.rollout_weight", s.rollout_weight, 0.0, 1.0)?;
        range("selfplay.score_utility", s.score_utility, 0.0, 1.0)?;
        if s.score_utility > 0.0 && !self.net.score_head {
            return Err(ConfigError {
                field: "selfplay.score_utility".into(),
                message: "the score head's share of the value needs a score head: set \
                          net.score_head = true, or score_utility to 0"
                    .into(),
            });
        }
        range(
            "selfplay.bootstrap_generations",
            s.bootstrap_generations,
            0,
            100_000,
        )?;
        range(
            "selfplay.bootstrap_simulations",
            s.bootstrap_simulations,
            1,
            100_000,
        )?;
        if s.bootstrap_generations > 0 && s.rollouts == 0 {
            return Err(ConfigError {
                field: "selfplay.bootstrap_generations".into(),
                message: "bootstrap searches take their values from random playouts alone: \
                          set selfplay.rollouts above 0, or bootstrap_generations to 0"
                    .into(),
            });
        }
        range(
            "selfplay.random_opening_prob",
            s.random_opening_prob,
            0.0,
            1.0,
        )?;
        range(
            "selfplay.random_opening_plies",
            s.random_opening_plies,
            0,
            1000,
        )?;
        range("selfplay.start_game_prob", s.start_game_prob, 0.0, 1.0)?;
        if s.start_game_prob > 0.0 && s.start_games.is_empty() {
            return Err(ConfigError {
                field: "selfplay.start_game_prob".into(),
                message: "no games to start inside: list them in selfplay.start_games, or \
                          set start_game_prob to 0"
                    .into(),
            });
        }
        oxo_variants::with_variant!(variant, G => s.start_lines::<G>())?;
        range("selfplay.opponent_prob", s.opponent_prob, 0.0, 1.0)?;
        if s.opponent_prob > 0.0 && s.opponents.is_empty() {
            return Err(ConfigError {
                field: "selfplay.opponent_prob".into(),
                message: "no opponents to play: name agents in selfplay.opponents, e.g. \
                          [\"alphabeta:depth=3\"], or set opponent_prob to 0"
                    .into(),
            });
        }
        open_range(
            "selfplay.dirichlet_alpha",
            s.dirichlet_alpha as f64,
            0.0,
            10.0,
        )?;
        let t = &self.train;
        range("train.batch_size", t.batch_size, 1, 65536)?;
        range(
            "train.steps_per_generation",
            t.steps_per_generation,
            1,
            1_000_000,
        )?;
        open_range("train.learning_rate", t.learning_rate, 0.0, 1.0)?;
        range("train.weight_decay", t.weight_decay, 0.0, 1.0)?;
        range("train.score_weight", t.score_weight, 0.0, 100.0)?;
        range("train.ownership_weight", t.ownership_weight, 0.0, 100.0)?;
        range(
            "train.cell_points_scale",
            t.cell_points_scale,
            0.001,
            1000.0,
        )?;
        open_range("train.score_scale", t.score_scale as f64, 0.0, 1e6)?;
        if let Some(score) = t.outright_win_score {
            open_range("train.outright_win_score", score as f64, 0.0, 1.0)?;
            if !self.net.score_head {
                return Err(ConfigError {
                    field: "train.outright_win_score".into(),
                    message: "a score target needs a score head: set net.score_head = true, \
                              or remove outright_win_score"
                        .into(),
                });
            }
        }
        range("train.value_search_weight", t.value_search_weight, 0.0, 1.0)?;
        range("train.score_search_weight", t.score_search_weight, 0.0, 1.0)?;
        let value = self.net_value();
        if t.score_search_weight > 0.0 && (value.score_utility != 1.0 || value.rollouts.is_on()) {
            return Err(ConfigError {
                field: "train.score_search_weight".into(),
                message: "the search's value is a margin only with selfplay.score_utility = 1 \
                          and no playouts mixed in (selfplay.rollouts = 0): set those, or \
                          score_search_weight to 0"
                    .into(),
            });
        }
        range("train.min_window", t.min_window, 1, usize::MAX)?;
        range("train.max_window", t.max_window, t.min_window, usize::MAX)?;
        open_range("train.window_factor", t.window_factor, 0.0, 1e9)?;
        range("train.window_exponent", t.window_exponent, 0.0, 1.0)?;
        let g = &self.gate;
        range("gate.max_games", g.max_games, 2, 100_000)?;
        range("gate.simulations", g.simulations, 1, 100_000)?;
        range("gate.opening_plies", g.opening_plies, 0, 50)?;
        range("gate.threshold", g.threshold, 0.0, 1.0)?;
        range("gate.elo0", g.elo0, -1000.0, 1000.0)?;
        open_range("gate.elo1", g.elo1, g.elo0, 1000.0)?;
        open_range("gate.alpha", g.alpha, 0.0, 0.49)?;
        open_range("gate.beta", g.beta, 0.0, 0.49)?;
        range("gate.rate_games", g.rate_games, 2, 10_000)?;
        if g.rate_every > 0 && g.rate_agents.is_empty() {
            return Err(ConfigError {
                field: "gate.rate_agents".into(),
                message: "empty: name at least one agent to rate against, e.g. [\"random\"]".into(),
            });
        }
        // Each handcrafted agent is built here, so a bad one fails now, not after a
        // generation of work. A `net:` agent is built when a run starts
        // (`gate::check_agents`): its model's run config, read to know how it plays,
        // may name a model of this run in turn, and loading it here would loop.
        self.check_agents_with(|spec| match spec.kind == oxo_play::NET_KIND {
            true => Ok(()),
            false => {
                oxo_variants::with_variant!(variant, G => oxo_agents::build_agent::<G>(spec).map(drop))
                    .map_err(|e| e.to_string())
            }
        })
    }

    /// Parses each agent the run plays against (`gate.rate_agents`, `selfplay.opponents`)
    /// and checks it with `build`; the first that fails either is refused with the field,
    /// the agent and what is wrong.
    pub fn check_agents_with(
        &self,
        build: impl Fn(&oxo_agents::AgentSpec) -> Result<(), String>,
    ) -> Result<(), ConfigError> {
        let lists = [
            ("gate.rate_agents", &self.gate.rate_agents),
            ("selfplay.opponents", &self.selfplay.opponents),
        ];
        for (field, agents) in lists {
            for agent in agents {
                let invalid = |message: String| ConfigError {
                    field: field.into(),
                    message: format!("'{agent}': {message}"),
                };
                let spec = agent
                    .parse::<oxo_agents::AgentSpec>()
                    .map_err(|e| invalid(e.to_string()))?;
                build(&spec).map_err(invalid)?;
            }
        }
        Ok(())
    }

    /// Checks that `variant` has what the cell head (`net.ownership_head`) learns: small
    /// boards to own, or scores for the points target.
    fn check_cell_target(&self, variant: oxo_variants::Variant) -> Result<(), ConfigError> {
        let (has_ownership, has_scores) = oxo_variants::with_variant!(variant, G => (
            <G as oxo_rules::Game>::HAS_OWNERSHIP,
            <G as oxo_rules::Game>::HAS_SCORES,
        ));
        let message = match self.train.cell_target {
            CellTarget::Owner if self.net.ownership_head && !has_ownership => format!(
                "{variant} has no small boards to own: set it to false (only ultimate and \
                 extreme have an ownership target), or train.cell_target to \"points\" in a \
                 scoring variant"
            ),
            CellTarget::Points if !has_scores => format!(
                "{variant} keeps no scores: the points target needs a scoring variant \
                 (adjacency, xando, extreme, paytoplay); set train.cell_target to \"owner\""
            ),
            CellTarget::Points if !self.net.ownership_head => {
                "the points target is the cell head's: set net.ownership_head = true".into()
            }
            _ => return Ok(()),
        };
        let field = match self.train.cell_target {
            CellTarget::Owner => "net.ownership_head",
            CellTarget::Points => "train.cell_target",
        };
        Err(ConfigError {
            field: field.into(),
            message,
        })
    }

    /// The trainer's hyper-parameters.
    pub fn train_config(&self) -> TrainConfig {
        TrainConfig {
            learning_rate: self.train.learning_rate,
            weight_decay: self.train.weight_decay,
            score_weight: self.train.score_weight,
            ownership_weight: self.train.ownership_weight,
        }
    }

    /// How the run's self-play, gate and rating value positions with the net: its score
    /// utility and the random playouts mixed in (`selfplay.score_utility`,
    /// `selfplay.rollouts`).
    pub fn net_value(&self) -> NetValue {
        NetValue {
            score_utility: self.selfplay.score_utility,
            rollouts: RolloutConfig {
                playouts: self.selfplay.rollouts,
                weight: self.selfplay.rollout_weight,
                policy: self.selfplay.rollout_policy,
            },
            draw: 0.0,
        }
    }

    /// The search of a bootstrap generation's moves: the self-play scheme with
    /// `bootstrap_simulations`, and for Gumbel every legal root move considered (uniform
    /// priors give no reason to prefer a few).
    pub fn bootstrap_search(&self) -> SearchConfig {
        let mut search = self.selfplay_search(self.selfplay.bootstrap_simulations, true);
        if let Scheme::Gumbel(gumbel) = &mut search.scheme {
            gumbel.max_considered_actions = u32::MAX;
        }
        search
    }

    /// The playouts of a bootstrap search: `selfplay.rollouts` of them, their mean the whole
    /// value.
    pub fn bootstrap_rollouts(&self) -> RolloutConfig {
        RolloutConfig {
            playouts: self.selfplay.rollouts,
            weight: 1.0,
            policy: self.selfplay.rollout_policy,
        }
    }

    /// How the gate and the ratings search: the self-play scheme and its settings
    /// (`selfplay.scheme`, `gumbel_considered`, `gumbel_rescale`, `leaves_per_tree`) at
    /// `gate.simulations` a move, without root noise, so candidates are judged playing the
    /// way self-play uses them.
    pub fn gate_search(&self) -> PlaySearch {
        let s = &self.selfplay;
        PlaySearch {
            considered: s.gumbel_considered,
            rescale: s.gumbel_rescale,
            reuse: false,
            ..PlaySearch::new(s.scheme, self.gate.simulations).with_leaves(s.leaves_per_tree)
        }
    }

    /// The self-play search with `simulations` per move; `full` searches get the root
    /// exploration noise (Dirichlet for PUCT; Gumbel noise is used in both).
    pub fn selfplay_search(&self, simulations: u32, full: bool) -> SearchConfig {
        let s = &self.selfplay;
        let scheme = match s.scheme {
            SchemeName::Gumbel => Scheme::Gumbel(GumbelConfig {
                max_considered_actions: s.gumbel_considered,
                gumbel_scale: s.gumbel_scale,
                rescale_values: s.gumbel_rescale,
                ..GumbelConfig::default()
            }),
            SchemeName::Puct => Scheme::Puct(PuctConfig {
                dirichlet_alpha: s.dirichlet_alpha,
                dirichlet_fraction: if full { 0.25 } else { 0.0 },
                ..PuctConfig::default()
            }),
        };
        SearchConfig {
            simulations,
            leaves_per_tree: s.leaves_per_tree,
            reuse_tree: false,
            // Self-play's targets are AlphaZero's: no run has measured training on a
            // solver's search.
            solve: false,
            scheme,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A handcrafted rating agent that cannot be built (an unknown kind or parameter, a bad
    /// value) is refused when the config loads, not after a generation of work.
    #[test]
    fn rate_agents_are_built_when_the_config_loads() {
        for (agent, expected) in [
            ("minimax", "unknown agent 'minimax'"),
            ("uct:sims=0", "simulations from 1 to"),
            ("alphabeta:speed=3", "has no parameter 'speed'"),
            ("solver", "cannot play ultimate"),
        ] {
            let text: Vec<String> = RunConfig::default_text(oxo_variants::Variant::Ultimate)
                .lines()
                .map(|line| match line.starts_with("rate_agents") {
                    true => format!("rate_agents = [\"random\", \"{agent}\"]"),
                    false => line.to_string(),
                })
                .collect();
            let err = RunConfig::from_toml(&text.join("\n")).expect_err(agent);
            assert_eq!(err.field, "gate.rate_agents", "{agent}");
            assert!(err.message.contains(expected), "{agent}: {}", err.message);
        }
    }

    /// A small valid tictactoe config, as the tests use it.
    pub(crate) const SMALL: &str = r#"
variant = "tictactoe"
[net]
blocks = 1
channels = 8
[selfplay]
games_per_generation = 8
parallel_games = 8
simulations_full = 16
simulations_fast = 4
full_search_prob = 0.5
[train]
batch_size = 16
steps_per_generation = 2
learning_rate = 0.001
min_window = 100
max_window = 1000
[gate]
max_games = 4
simulations = 4
"#;

    #[test]
    fn small_config_parses() {
        let config = RunConfig::from_toml(SMALL).unwrap();
        assert_eq!(config.selfplay.scheme, SchemeName::Gumbel);
        assert_eq!(RunConfig::from_toml(&config.to_toml()).unwrap(), config);
    }

    #[test]
    fn rollout_policy_reaches_the_playouts() {
        let config = RunConfig::from_toml(SMALL).unwrap();
        assert_eq!(config.net_value().rollouts.policy, PlayoutPolicy::Uniform);
        let tactical = SMALL.replace(
            "parallel_games = 8",
            "parallel_games = 8\nrollouts = 4\nrollout_policy = \"tactical\"",
        );
        let config = RunConfig::from_toml(&tactical).unwrap();
        assert_eq!(config.net_value().rollouts.policy, PlayoutPolicy::Tactical);
        assert_eq!(config.bootstrap_rollouts().policy, PlayoutPolicy::Tactical);
        assert_eq!(RunConfig::from_toml(&config.to_toml()).unwrap(), config);
    }

    /// Every variant's built-in config is valid and names its variant.
    #[test]
    fn built_in_configs_are_valid() {
        for variant in oxo_variants::Variant::ALL {
            assert_eq!(RunConfig::default_for(variant).variant, variant.name());
        }
    }

    /// `engine` defaults to onnxruntime, round-trips, and an unknown one is refused with the
    /// accepted names.
    #[test]
    fn engine_is_chosen_and_checked() {
        let config = RunConfig::from_toml(SMALL).unwrap();
        assert_eq!(config.engine, EngineKind::Onnxruntime);
        let burn = format!("engine = \"burn\"\n{SMALL}");
        let config = RunConfig::from_toml(&burn).unwrap();
        assert_eq!(config.engine, EngineKind::Burn);
        assert_eq!(RunConfig::from_toml(&config.to_toml()).unwrap(), config);
        let tract = format!("engine = \"tract\"\n{SMALL}");
        let err = RunConfig::from_toml(&tract).unwrap_err().to_string();
        assert!(
            err.contains("tract") && err.contains("onnxruntime") && err.contains("burn"),
            "{err}"
        );
    }

    #[test]
    fn ownership_head_needs_a_variant_with_small_boards() {
        let tictactoe = SMALL.replace("[net]", "[net]\nownership_head = true");
        let err = RunConfig::from_toml(&tictactoe).unwrap_err().to_string();
        assert!(
            err.contains("net.ownership_head") && err.contains("set it to false"),
            "{err}"
        );
        let ultimate = tictactoe.replace("\"tictactoe\"", "\"ultimate\"");
        let config = RunConfig::from_toml(&ultimate).unwrap();
        assert!(config.net.ownership_head);
        assert_eq!(config.train_config().ownership_weight, 1.0);
    }

    #[test]
    fn the_points_target_needs_scores_and_the_cell_head() {
        let points = SMALL.replace("[train]", "[train]\ncell_target = \"points\"");
        // tictactoe keeps no scores.
        let err = RunConfig::from_toml(&points).unwrap_err().to_string();
        assert!(
            err.contains("train.cell_target") && err.contains("keeps no scores"),
            "{err}"
        );
        // adjacency does, but the target needs the head.
        let adjacency = points.replace("\"tictactoe\"", "\"adjacency\"");
        let err = RunConfig::from_toml(&adjacency).unwrap_err().to_string();
        assert!(err.contains("net.ownership_head = true"), "{err}");
        let headed = adjacency.replace("[net]", "[net]\nownership_head = true");
        let config = RunConfig::from_toml(&headed).unwrap();
        assert_eq!(config.train.cell_target, CellTarget::Points);
        assert_eq!(config.train.cell_points_scale, 16.0);
        let scaled = headed.replace("[train]", "[train]\ncell_points_scale = 0");
        let err = RunConfig::from_toml(&scaled).unwrap_err().to_string();
        assert!(err.contains("train.cell_points_scale"), "{err}");
    }

    #[test]
    fn a_patch_stem_must_fit_the_variant() {
        let extreme = SMALL
            .replace("\"tictactoe\"", "\"extreme\"")
            .replace("[net]", "[net]\npatch = 4");
        let config = RunConfig::from_toml(&extreme).unwrap();
        assert_eq!(config.net.patch, 4);
        assert_eq!(RunConfig::from_toml(&config.to_toml()).unwrap(), config);
        for (variant, patch) in [
            ("extreme", 3),
            ("tictactoe", 2),
            ("xando", 2),
            ("ultimate", 0),
        ] {
            let bad = SMALL
                .replace("\"tictactoe\"", &format!("\"{variant}\""))
                .replace("[net]", &format!("[net]\npatch = {patch}"));
            let err = RunConfig::from_toml(&bad).unwrap_err().to_string();
            assert!(
                err.contains("net.patch") && err.contains("extreme 4"),
                "{variant}, patch {patch}: {err}"
            );
        }
        let owned = extreme.replace("[net]", "[net]\nownership_head = true");
        let err = RunConfig::from_toml(&owned).unwrap_err().to_string();
        assert!(
            err.contains("net.ownership_head") && err.contains("net.patch to 1"),
            "{err}"
        );
    }

    #[test]
    fn errors_name_the_field_and_range() {
        let bad = SMALL.replace("parallel_games = 8", "parallel_games = 0");
        let err = RunConfig::from_toml(&bad).unwrap_err().to_string();
        assert!(
            err.contains("selfplay.parallel_games") && err.contains("1..=4096"),
            "{err}"
        );
        let bad = SMALL.replace("simulations_fast = 4", "simulations_fast = 40");
        let err = RunConfig::from_toml(&bad).unwrap_err().to_string();
        assert!(err.contains("selfplay.simulations_fast"), "{err}");
        let bad = SMALL.replace("\"tictactoe\"", "\"chess\"");
        let err = RunConfig::from_toml(&bad).unwrap_err().to_string();
        assert!(err.contains("variant") && err.contains("ultimate"), "{err}");
        let bad = SMALL.replace("full_search_prob = 0.5", "full_search_prob = 0.0");
        let err = RunConfig::from_toml(&bad).unwrap_err().to_string();
        assert!(err.contains("selfplay.full_search_prob"), "{err}");
        for (line, field) in [
            ("workers = 257", "selfplay.workers"),
            ("random_opening_prob = 1.5", "selfplay.random_opening_prob"),
            ("rollouts = 1001", "selfplay.rollouts"),
            ("rollout_weight = 1.5", "selfplay.rollout_weight"),
            ("full_search_prob_o = 0.0", "selfplay.full_search_prob_o"),
            ("full_search_prob_o = 1.5", "selfplay.full_search_prob_o"),
            ("score_utility = -0.5", "selfplay.score_utility"),
            ("score_utility = 0.5", "net.score_head = true"),
            ("rollout_policy = \"smart\"", "uniform"),
            ("bootstrap_generations = 1", "selfplay.rollouts above 0"),
            ("opponent_prob = 0.5", "selfplay.opponents"),
            ("opponent_prob = 1.5", "selfplay.opponent_prob"),
            (
                "opponents = [\"bogus\"]",
                "selfplay.opponents: 'bogus': unknown agent",
            ),
            (
                "opponents = [\"alphabeta:depth=0\"]",
                "selfplay.opponents: 'alphabeta:depth=0'",
            ),
            ("opponent_plays = \"white\"", "either"),
            (
                "bootstrap_simulations = 0",
                "selfplay.bootstrap_simulations",
            ),
        ] {
            let bad = SMALL.replace("parallel_games = 8", &format!("parallel_games = 8\n{line}"));
            let err = RunConfig::from_toml(&bad).unwrap_err().to_string();
            assert!(err.contains(field), "{err}");
        }
        let bad = SMALL.replace(
            "max_window = 1000",
            "max_window = 1000\nvalue_search_weight = -0.1",
        );
        let err = RunConfig::from_toml(&bad).unwrap_err().to_string();
        assert!(err.contains("train.value_search_weight"), "{err}");
        // A score target from the search needs a search valued by the score alone.
        let bad = SMALL.replace(
            "max_window = 1000",
            "max_window = 1000\nscore_search_weight = 0.5",
        );
        let err = RunConfig::from_toml(&bad).unwrap_err().to_string();
        assert!(
            err.contains("train.score_search_weight") && err.contains("score_utility = 1"),
            "{err}"
        );
        // Valued by the score alone it is accepted, but not with playouts mixed in.
        let scored = bad
            .replace("channels = 8", "channels = 8\nscore_head = true")
            .replace(
                "parallel_games = 8",
                "parallel_games = 8\nscore_utility = 1.0",
            );
        let config = RunConfig::from_toml(&scored).expect("a search valued by the score alone");
        assert_eq!(config.train.score_search_weight, 0.5);
        let with_playouts =
            scored.replace("parallel_games = 8", "parallel_games = 8\nrollouts = 4");
        let err = RunConfig::from_toml(&with_playouts)
            .unwrap_err()
            .to_string();
        assert!(err.contains("selfplay.rollouts = 0"), "{err}");
        let bad = SMALL.replace(
            "max_window = 1000",
            "max_window = 1000\nownership_weight = 101",
        );
        let err = RunConfig::from_toml(&bad).unwrap_err().to_string();
        assert!(err.contains("train.ownership_weight"), "{err}");
        for (line, expected) in [
            ("outright_win_score = 0.0", "train.outright_win_score"),
            ("outright_win_score = 1.5", "train.outright_win_score"),
            ("outright_win_score = 1.0", "net.score_head = true"),
        ] {
            let bad = SMALL.replace("max_window = 1000", &format!("max_window = 1000\n{line}"));
            let err = RunConfig::from_toml(&bad).unwrap_err().to_string();
            assert!(err.contains(expected), "{err}");
        }
        let scored = SMALL.replace("channels = 8", "channels = 8\nscore_head = true");
        let good = scored.replace(
            "max_window = 1000",
            "max_window = 1000\noutright_win_score = 1.0",
        );
        let config = RunConfig::from_toml(&good).unwrap();
        assert_eq!(config.train.outright_win_score, Some(1.0));
        assert_eq!(RunConfig::from_toml(&config.to_toml()).unwrap(), config);
        let bad = SMALL.replace("[gate]", "[gate]\nbogus = 1");
        let err = RunConfig::from_toml(&bad).unwrap_err().to_string();
        assert!(err.contains("bogus"), "{err}");
    }

    /// Start games: every move is checked for the config's variant, and an error names the
    /// game, the move and why; a probability needs games; good ones survive a round trip.
    #[test]
    fn start_games_are_checked_move_by_move() {
        let with = |lines: &str| {
            SMALL.replace(
                "parallel_games = 8",
                &format!("parallel_games = 8\n{lines}"),
            )
        };
        for (lines, expected) in [
            ("start_game_prob = 0.5", "selfplay.start_games"),
            ("start_game_prob = 1.5", "selfplay.start_game_prob"),
            (
                "start_games = [\"A1 A1\"]",
                "selfplay.start_games[0]: move 2 'A1': the square is occupied",
            ),
            (
                "start_games = [\"A1\", \"A1 Z9\"]",
                "selfplay.start_games[1]: move 2 'Z9'",
            ),
            (
                "start_games = [\"A1 B1 A2 B2 A3 C3\"]",
                "move 6 'C3': the game is over",
            ),
            ("start_games = [\" \"]", "selfplay.start_games[0]: no moves"),
        ] {
            let err = RunConfig::from_toml(&with(lines)).unwrap_err().to_string();
            assert!(err.contains(expected), "{lines}: {err}");
        }
        let good = with("start_games = [\"A1 B1 A2 B2 A3\", \"b2\"]\nstart_game_prob = 0.5");
        let config = RunConfig::from_toml(&good).unwrap();
        let lines = config
            .selfplay
            .start_lines::<oxo_variants::tictactoe::TicTacToe>()
            .unwrap();
        assert_eq!(lines, vec![vec![0, 1, 3, 4, 6], vec![4]]);
        assert_eq!(RunConfig::from_toml(&config.to_toml()).unwrap(), config);
    }

    /// Self-play opponents survive a round trip; without them, none is written and the side
    /// defaults to either.
    #[test]
    fn opponents_round_trip() {
        let text = SMALL.replace(
            "parallel_games = 8",
            "parallel_games = 8\nopponents = [\"random\", \"alphabeta:depth=2\"]\n\
             opponent_prob = 0.25\nopponent_plays = \"o\"",
        );
        let config = RunConfig::from_toml(&text).unwrap();
        assert_eq!(config.selfplay.opponents.len(), 2);
        assert_eq!(config.selfplay.opponent_plays, OpponentSide::O);
        assert_eq!(RunConfig::from_toml(&config.to_toml()).unwrap(), config);
        let plain = RunConfig::from_toml(SMALL).unwrap();
        assert_eq!(plain.selfplay.opponent_plays, OpponentSide::Either);
        assert!(!plain.to_toml().contains("opponents"));
    }
}
