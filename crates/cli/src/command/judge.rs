//! `oxo judge`: an agent's moves judged by the exact solver of a variant that has one
//! (`oxo variants --json`: `solver`). It reports the share of won and drawn positions where
//! the agent's move keeps the exact value (a won position stays won, a drawn one drawn), on
//! positions reached by random moves and by the agent's own play, and the results of games
//! the agent plays first against `solver` from the empty board.

use std::path::PathBuf;

use oxo_agents::{Agent, AgentSpec, Evaluate, exact_action_value};
use oxo_encode::Encode;
use oxo_rules::{Action, Game, Outcome, Player};
use oxo_variants::{Variant, with_variant};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use serde::Serialize;

use super::arena::MadeBy;
use super::args::{parse_agent, parse_variant, variant_help};

#[derive(clap::Args)]
pub struct JudgeArgs {
    #[arg(long, value_parser = parse_variant, help = variant_help())]
    variant: Variant,
    /// The agent judged (default: `net`, the shipped model at its own setting).
    #[arg(long, default_value = "net", value_parser = parse_agent)]
    agent: AgentSpec,
    /// Positions reached by random moves, each at a ply drawn uniformly from --plies, 0 to
    /// 100000.
    #[arg(long, default_value_t = 100, value_parser = parse_positions)]
    random_positions: usize,
    /// Games the agent plays against itself after two random moves, 0 to 100000: each of
    /// its moves at a ply in --plies is judged.
    #[arg(long, default_value_t = 4, value_parser = parse_positions)]
    own_games: usize,
    /// The plies of the judged positions, FROM..TO (both included).
    #[arg(long, default_value = "4..30", value_parser = parse_plies)]
    plies: PlyRange,
    /// Games the agent plays first against `solver` from the empty board, 0 to 100000 (the
    /// solver's seed differs from game to game).
    #[arg(long, default_value_t = 4, value_parser = parse_positions)]
    first_games: usize,
    /// Seed of the random moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where to write the JSON record (default: judge-VARIANT.json).
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Judged plies, `from..=to`.
#[derive(Clone, Copy, Debug, Serialize)]
struct PlyRange {
    from: usize,
    to: usize,
}

fn parse_plies(text: &str) -> Result<PlyRange, String> {
    let refused = || format!("'{text}' is not a ply range: give FROM..TO, 0 <= FROM <= TO <= 1000");
    let (from, to) = text.split_once("..").ok_or_else(refused)?;
    match (from.trim().parse::<usize>(), to.trim().parse::<usize>()) {
        (Ok(from), Ok(to)) if from <= to && to <= 1000 => Ok(PlyRange { from, to }),
        _ => Err(refused()),
    }
}

fn parse_positions(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n <= 100_000 => Ok(n),
        _ => Err(format!(
            "'{text}' is not a count: give a number from 0 to 100000"
        )),
    }
}

/// How a judged position was reached.
#[derive(Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum Source {
    Random,
    Own,
}

/// One judged position: the moves that reach it, its exact value for the mover, the agent's
/// move and that move's exact value.
#[derive(Serialize)]
struct Judged {
    source: Source,
    moves: Vec<String>,
    value: i8,
    chosen: String,
    chosen_value: i8,
}

/// Of the won and drawn positions of one kind, how many kept their value.
#[derive(Serialize, Default)]
struct Share {
    judged: usize,
    kept: usize,
    share: f64,
}

impl Share {
    fn of<'a>(positions: impl Iterator<Item = &'a Judged>) -> Share {
        let (judged, kept) = positions
            .filter(|p| p.value >= 0)
            .fold((0, 0), |(n, k), p| {
                (n + 1, k + (p.chosen_value == p.value) as usize)
            });
        Share {
            judged,
            kept,
            share: if judged == 0 {
                0.0
            } else {
                kept as f64 / judged as f64
            },
        }
    }
}

/// What the record file holds.
#[derive(Serialize)]
struct Record {
    variant: &'static str,
    agent: String,
    plays_with: Option<String>,
    plies: PlyRange,
    seed: u64,
    /// Won and drawn positions whose value the agent's move kept: all, then by source.
    kept: Share,
    kept_random: Share,
    kept_own: Share,
    /// Lost positions (every move keeps a loss), not in the shares.
    lost_positions: usize,
    /// The agent's results playing first against `solver`: "win", "draw" or "loss".
    first_against_solver: Vec<&'static str>,
    positions: Vec<Judged>,
    made_by: MadeBy,
}

impl JudgeArgs {
    pub fn run(self) -> Result<(), String> {
        let solvable = with_variant!(self.variant, G => <G as Evaluate>::SOLVABLE);
        if !solvable {
            let solvable: Vec<&str> = Variant::ALL
                .into_iter()
                .filter(|&v| with_variant!(v, G => <G as Evaluate>::SOLVABLE))
                .map(Variant::name)
                .collect();
            return Err(format!(
                "{} has no exact solver to judge by: choose one of {}",
                self.variant,
                solvable.join(", ")
            ));
        }
        let out = self
            .out
            .clone()
            .unwrap_or_else(|| PathBuf::from(format!("judge-{}.json", self.variant)));
        let record = with_variant!(self.variant, G => self.judge::<G>())?;
        println!(
            "{}: kept the exact value in {} of {} won or drawn positions ({:.1}%; random {:.1}%, own games {:.1}%); first against solver: {}",
            record.agent,
            record.kept.kept,
            record.kept.judged,
            100.0 * record.kept.share,
            100.0 * record.kept_random.share,
            100.0 * record.kept_own.share,
            record.first_against_solver.join(" ")
        );
        let json = serde_json::to_string_pretty(&record).expect("records serialise");
        oxo_arena::record::write_atomic(&out, json.as_bytes())
            .map_err(|e| format!("{}: {e}", out.display()))?;
        println!("wrote {}", out.display());
        Ok(())
    }

    fn judge<G: Encode + Evaluate>(&self) -> Result<Record, String> {
        let mut agent = oxo_player::build_any_agent::<G>(&self.agent).map_err(|e| e.to_string())?;
        let mut rng = SmallRng::seed_from_u64(self.seed);
        let mut positions = Vec::new();
        for _ in 0..self.random_positions {
            let plies = rng.random_range(self.plies.from..=self.plies.to);
            let Some((game, moves)) = random_moves::<G>(plies, &mut rng) else {
                continue;
            };
            positions.push(judge_move(agent.as_mut(), &game, &moves, Source::Random).0);
        }
        for _ in 0..self.own_games {
            self.own_game(agent.as_mut(), &mut rng, &mut positions);
        }
        let first_against_solver = (0..self.first_games as u64)
            .map(|game| self.first_against_solver::<G>(self.seed + game))
            .collect::<Result<_, String>>()?;
        Ok(Record {
            variant: G::NAME,
            agent: agent.name().to_string(),
            plays_with: agent.plays_with(),
            plies: self.plies,
            seed: self.seed,
            kept: Share::of(positions.iter()),
            kept_random: Share::of(positions.iter().filter(|p| p.source == Source::Random)),
            kept_own: Share::of(positions.iter().filter(|p| p.source == Source::Own)),
            lost_positions: positions.iter().filter(|p| p.value < 0).count(),
            first_against_solver,
            positions,
            made_by: MadeBy::now(),
        })
    }

    /// One game of the agent against itself after two random moves, judging each of its
    /// moves at a ply in range.
    fn own_game<G: Evaluate>(
        &self,
        agent: &mut dyn Agent<G>,
        rng: &mut SmallRng,
        positions: &mut Vec<Judged>,
    ) {
        let Some((mut game, mut moves)) = random_moves::<G>(2, rng) else {
            return;
        };
        while !game.is_over() && moves.len() <= self.plies.to {
            let chosen = if moves.len() >= self.plies.from {
                let (judged, chosen) = judge_move(agent, &game, &moves, Source::Own);
                positions.push(judged);
                chosen
            } else {
                agent.choose(&game)
            };
            game.play(chosen);
            moves.push(chosen);
        }
    }

    /// A game from the empty board with the agent as X against `solver`, played by the
    /// arena's game loop with `seed`: the agent's result.
    fn first_against_solver<G: Encode + Evaluate>(
        &self,
        seed: u64,
    ) -> Result<&'static str, String> {
        let solver: AgentSpec = "solver".parse().map_err(|e| format!("{e}"))?;
        let (end, _) = oxo_arena::play_game_with(
            &oxo_player::build_any_agent::<G>,
            &self.agent,
            &solver,
            G::new(),
            seed,
        )
        .map_err(|e| e.to_string())?;
        Ok(match end.outcome() {
            Some(Outcome::Win(Player::X)) => "win",
            Some(Outcome::Win(Player::O)) => "loss",
            _ => "draw",
        })
    }
}

/// `plies` uniformly random moves from the start and the position they reach, or `None` if
/// the game ends before.
fn random_moves<G: Game>(plies: usize, rng: &mut SmallRng) -> Option<(G, Vec<Action>)> {
    let mut game = G::new();
    let mut moves = Vec::with_capacity(plies);
    for _ in 0..plies {
        if game.is_over() {
            return None;
        }
        let action = game.random_action(rng);
        game.play(action);
        moves.push(action);
    }
    (!game.is_over()).then_some((game, moves))
}

/// The agent's move in `game` (reached by `moves`), judged by both exact values.
fn judge_move<G: Evaluate>(
    agent: &mut dyn Agent<G>,
    game: &G,
    moves: &[Action],
    source: Source,
) -> (Judged, Action) {
    let chosen = agent.choose(game);
    let judged = Judged {
        source,
        moves: moves.iter().map(|&a| G::format_action(a)).collect(),
        value: game.exact_value().expect("a solvable variant"),
        chosen: G::format_action(chosen),
        chosen_value: exact_action_value(game, chosen),
    };
    (judged, chosen)
}
