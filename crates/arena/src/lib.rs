//! Round-robin tournaments between agents: every pairing plays the same set of openings with
//! colours swapped (paired games), games run in parallel, and the results become Elo ratings
//! with 95% intervals ([`elo`]), a JSON report and an SVG chart ([`chart`]), written
//! atomically with the commit that made them ([`record`]). Every game, here and in self-play
//! and the gate, is played by one game loop ([`runner`]).

pub mod chart;
pub mod elo;
pub mod record;
pub mod runner;

use oxo_agents::{Agent, AgentSpec, Evaluate, SpecError, build_agent};
use oxo_rules::{Action, Game, Outcome, Player};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rayon::prelude::*;
use serde::Serialize;

use crate::elo::{PairScore, Rating, fit_ratings};
use crate::runner::{AgentMover, Start, run_games};

/// How a tournament is played.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    /// Games per pairing; even, half with each agent as X.
    pub games_per_pair: usize,
    /// Random moves played before the agents take over, to vary the games. Every pairing
    /// plays the same openings.
    pub opening_plies: usize,
    /// Seed for openings and agents: the same seed gives the same tournament.
    pub seed: u64,
}

/// One finished game.
#[derive(Clone, Debug, Serialize)]
pub struct GameRecord {
    /// Index of the agent that played X.
    pub x: usize,
    /// Index of the agent that played O.
    pub o: usize,
    /// Which opening it started from.
    pub opening: usize,
    /// `"x"`, `"o"` or `"draw"`.
    pub result: &'static str,
    /// Final scores `[X, O]` for scoring variants.
    pub scores: Option<[i32; 2]>,
    /// Number of moves, opening included.
    pub plies: usize,
    /// Every move from the start, opening included, in `docs/RULES.md` notation: replayed from
    /// the empty board they give the game's end, so a lost game can be examined move by move.
    pub moves: Vec<String>,
}

/// Wins, draws and losses of one agent against all others, and its rating.
#[derive(Clone, Debug, Serialize)]
pub struct Standing {
    /// The agent's spec string.
    pub agent: String,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// What the agent played with beyond its spec ([`Agent::plays_with`]: for a net, the
    /// model file, the graph and the engine); absent where the spec says it all.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plays_with: Option<String>,
    /// Elo with its 95% interval (the anchor is at 0).
    pub rating: Rating,
}

/// Results of one pairing, from the first agent's view.
#[derive(Clone, Debug, Serialize)]
pub struct Pairing {
    /// First agent's spec.
    pub a: String,
    /// Second agent's spec.
    pub b: String,
    /// Games `a` won.
    pub a_wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games `b` won.
    pub b_wins: u32,
}

/// A whole tournament's results: what `oxo arena` prints and saves as JSON.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The variant played.
    pub variant: &'static str,
    /// Games per pairing.
    pub games_per_pair: usize,
    /// Random opening moves.
    pub opening_plies: usize,
    /// The seed.
    pub seed: u64,
    /// The agent rated 0.
    pub anchor: String,
    /// One row per agent, in the order given.
    pub standings: Vec<Standing>,
    /// One row per pairing.
    pub pairings: Vec<Pairing>,
    /// Every game.
    pub games: Vec<GameRecord>,
}

/// The `opening`-th opening: up to `plies` random moves from the start, the same for every
/// pairing, and the moves played. An opening that would end the game stops short.
pub fn opening<G: Game>(seed: u64, opening: usize, plies: usize) -> (G, Vec<Action>) {
    let mut rng = SmallRng::seed_from_u64(mix(seed, opening as u64, 0x0FE));
    let mut game = G::new();
    let mut moves = Vec::with_capacity(plies);
    for _ in 0..plies {
        let action = game.random_action(&mut rng);
        let mut next = game;
        next.play(action);
        if next.is_over() {
            break;
        }
        game = next;
        moves.push(action);
    }
    (game, moves)
}

/// A well-spread 64-bit value from three (splitmix64 finaliser): per-game seeds.
fn mix(a: u64, b: u64, c: u64) -> u64 {
    let mut z = a ^ b.rotate_left(21) ^ c.rotate_left(42);
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The spec with its seed replaced by one drawn for this game, so repeated games differ but
/// the tournament as a whole is reproducible.
fn seeded(spec: &AgentSpec, seed: u64) -> AgentSpec {
    let mut spec = spec.clone();
    spec.params.insert("seed".into(), seed.to_string());
    spec
}

/// Builds an agent from its spec: how a tournament gets its players, so front ends can add
/// agent kinds (trained nets) that this crate does not know.
pub type AgentFactory<'a, G> =
    dyn Fn(&AgentSpec) -> Result<Box<dyn Agent<G>>, SpecError> + Sync + 'a;

/// Plays one game between two specs from a starting position: its end and the moves played.
pub fn play_game<G: Evaluate>(
    x: &AgentSpec,
    o: &AgentSpec,
    start: G,
    seed: u64,
) -> Result<(G, Vec<Action>), SpecError> {
    play_game_with(&build_agent::<G>, x, o, start, seed)
}

/// [`play_game`] with agents built by `factory`.
pub fn play_game_with<G: Game>(
    factory: &AgentFactory<'_, G>,
    x: &AgentSpec,
    o: &AgentSpec,
    start: G,
    seed: u64,
) -> Result<(G, Vec<Action>), SpecError> {
    let mut x = AgentMover(factory(&seeded(x, mix(seed, 1, 0)))?);
    let mut o = AgentMover(factory(&seeded(o, mix(seed, 2, 0)))?);
    let mut start = Some(Start {
        game: start,
        opening: Vec::new(),
        movers: [0, 1],
    });
    let mut played = None;
    run_games(
        &mut [&mut x, &mut o],
        1,
        &mut || start.take(),
        &mut |game| {
            played = Some((game.end, game.moves));
        },
    );
    Ok(played.expect("the game was played"))
}

/// Plays the round robin: every pair of agents, `games_per_pair` games each from shared
/// openings with colours swapped, in parallel on the current rayon pool. `on_game` is called
/// after every game (for a progress bar). The first agent is the rating anchor.
pub fn run_tournament<G: Evaluate>(
    specs: &[AgentSpec],
    config: &ArenaConfig,
    on_game: &(dyn Fn() + Sync),
) -> Result<Report, SpecError> {
    run_tournament_with(specs, config, &build_agent::<G>, on_game)
}

/// [`run_tournament`] with agents built by `factory` (e.g. one that also knows trained nets).
pub fn run_tournament_with<G: Game>(
    specs: &[AgentSpec],
    config: &ArenaConfig,
    factory: &AgentFactory<'_, G>,
    on_game: &(dyn Fn() + Sync),
) -> Result<Report, SpecError> {
    // Fail fast on a bad spec, before any game; note what each agent plays with.
    let plays_with = specs
        .iter()
        .map(|spec| Ok(factory(spec)?.plays_with()))
        .collect::<Result<Vec<_>, SpecError>>()?;
    let openings = config.games_per_pair.div_ceil(2);
    let mut jobs = Vec::new();
    for a in 0..specs.len() {
        for b in a + 1..specs.len() {
            for k in 0..openings {
                jobs.push((a, b, k));
                jobs.push((b, a, k));
            }
        }
    }
    let games: Vec<GameRecord> = jobs
        .par_iter()
        .map(|&(x, o, k)| {
            let (start, opening_moves) = opening::<G>(config.seed, k, config.opening_plies);
            let seed = mix(config.seed, (x * 1000 + o) as u64, k as u64);
            let (end, played) = play_game_with(factory, &specs[x], &specs[o], start, seed)?;
            let moves: Vec<String> = opening_moves
                .iter()
                .chain(&played)
                .map(|&action| G::format_action(action))
                .collect();
            on_game();
            Ok(GameRecord {
                x,
                o,
                opening: k,
                result: match end.outcome() {
                    Some(Outcome::Win(Player::X)) => "x",
                    Some(Outcome::Win(Player::O)) => "o",
                    _ => "draw",
                },
                scores: end.scores(),
                plies: moves.len(),
                moves,
            })
        })
        .collect::<Result<_, SpecError>>()?;
    Ok(summarise::<G>(specs, &plays_with, config, games))
}

/// Tallies games into standings, pairings and ratings.
fn summarise<G: Game>(
    specs: &[AgentSpec],
    plays_with: &[Option<String>],
    config: &ArenaConfig,
    games: Vec<GameRecord>,
) -> Report {
    let n = specs.len();
    let mut wins = vec![vec![0u32; n]; n]; // wins[i][j]: i beat j
    let mut draws = vec![vec![0u32; n]; n];
    for game in &games {
        match game.result {
            "x" => wins[game.x][game.o] += 1,
            "o" => wins[game.o][game.x] += 1,
            _ => {
                draws[game.x][game.o] += 1;
                draws[game.o][game.x] += 1;
            }
        }
    }
    let mut pairs = Vec::new();
    let mut pairings = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let played = wins[i][j] + wins[j][i] + draws[i][j];
            let score = wins[i][j] as f64 + draws[i][j] as f64 / 2.0;
            pairs.push(PairScore {
                i,
                j,
                games: played as f64,
                score,
            });
            pairings.push(Pairing {
                a: specs[i].text.clone(),
                b: specs[j].text.clone(),
                a_wins: wins[i][j],
                draws: draws[i][j],
                b_wins: wins[j][i],
            });
        }
    }
    let ratings = fit_ratings(n, &pairs, 0);
    let standings = (0..n)
        .map(|i| Standing {
            agent: specs[i].text.clone(),
            wins: wins[i].iter().sum(),
            draws: draws[i].iter().sum(),
            losses: (0..n).map(|j| wins[j][i]).sum(),
            plays_with: plays_with[i].clone(),
            rating: ratings[i],
        })
        .collect();
    Report {
        variant: G::NAME,
        games_per_pair: config.games_per_pair.div_ceil(2) * 2,
        opening_plies: config.opening_plies,
        seed: config.seed,
        anchor: specs[0].text.clone(),
        standings,
        pairings,
        games,
    }
}

impl Report {
    /// The standings and pairings as a text table.
    pub fn table(&self) -> String {
        let width = self
            .standings
            .iter()
            .map(|s| s.agent.len())
            .max()
            .unwrap_or(5)
            .max(5);
        let mut out = format!(
            "{:<width$} {:>6} {:>6} {:>6} {:>8} {:>19}\n",
            "agent", "wins", "draws", "losses", "elo", "95% interval"
        );
        for s in &self.standings {
            out += &format!(
                "{:<width$} {:>6} {:>6} {:>6} {:>8.0} {:>8.0} .. {:<8.0}\n",
                s.agent, s.wins, s.draws, s.losses, s.rating.elo, s.rating.low, s.rating.high
            );
        }
        out += "\npairing (wins-draws-losses of the first)\n";
        for p in &self.pairings {
            out += &format!(
                "  {} vs {}: {}-{}-{}\n",
                p.a, p.b, p.a_wins, p.draws, p.b_wins
            );
        }
        out
    }
}
