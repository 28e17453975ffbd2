//! How well a model's value foresees extreme's results, beside the handcrafted evaluation
//! that `greedy` and `alphabeta` search with: both judge the same positions, those of games
//! between two agents (any spec, `net:` ones included), against the results of those games
//! (docs/experiments.md, section 'extreme').
//!
//! `cargo build --release -p oxo-cli -p oxo-train --example value_agreement`, then
//! `value_agreement MODEL SCORE_UTILITY AGENT_A AGENT_B GAMES`, e.g.
//! `models/extreme/model.bpk 1 greedy:seed=1 alphabeta:depth=2 40`. Each game opens with two
//! random moves (seeded by its number) and the agents swap sides every game.
//!
//! For each quarter of the games' length, and by how far the eventual winner is towards a
//! big-board pattern, it prints the concordance of each judge: over the
//! pairs of positions of that quarter, one from the side that went on to win and one from
//! the side that lost, the share in which the judge rates the winner's position higher
//! (ties count half). 0.5 is no foresight, 1 is perfect; it ignores scale and offset, so the
//! net's value and the evaluation's points compare directly.
//!
//! Concordance is biased where a judge's own agent plays: in games one agent always wins,
//! the winner's positions are the ones the loser has just moved into, and a judge that
//! picked the loser's moves rates those low for the winner (it chose them so), whatever
//! the truth. So it then also prints, for each quarter and each agent to move, the share of
//! positions whose value favours the side that went on to win (a value of 0 counts half):
//! a judge that misreads the positions its opponent leaves its own agent, the agent's
//! choices playing no part in them, is wrong there and not by selection.

use oxo_agents::{Agent, Evaluate};
use oxo_engine::{EngineKind, EngineModel};
use oxo_nn::{Device, Net};
use oxo_player::NetEvaluator;
use oxo_rules::{Game, Outcome, Player};
use oxo_search::Evaluator;
use oxo_variants::extreme::{Extreme, PATTERNS, board_points};
use rand::SeedableRng;
use rand::rngs::SmallRng;

/// Random moves before the agents take over.
const OPENING_PLIES: usize = 2;

/// Parts of a game's length reported apart.
const PHASES: usize = 4;

/// One position's judgements, from the view of its player to move.
struct Judged {
    /// The phase of the game it comes from (0..PHASES).
    phase: usize,
    /// The agent to move: 0 for `AGENT_A`, 1 for `AGENT_B`.
    agent: usize,
    /// Whether its player to move went on to win (draws are left out).
    won: bool,
    /// The net's value as the search uses it ([`NetEvaluator::with_score_utility`]).
    net: f32,
    /// The handcrafted evaluation, in points.
    eval: f32,
    /// How far the eventual winner is towards a big-board pattern here: its won boards in
    /// the best big pattern still open to it (none of its boards won by the opponent or
    /// closed without a winner), capped at 3.
    progress: usize,
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [model, utility, a, b, games] = args.as_slice() else {
        return Err("usage: value_agreement MODEL SCORE_UTILITY AGENT_A AGENT_B GAMES".into());
    };
    let utility: f32 = utility
        .parse()
        .map_err(|_| format!("SCORE_UTILITY must be a number in 0..=1 (got {utility})"))?;
    let games: u64 = games
        .parse()
        .map_err(|_| format!("GAMES must be a whole number (got {games})"))?;
    let net = Net::load::<Extreme>(model.as_ref(), &Device::flex()).map_err(|e| e.to_string())?;
    let mut engine = EngineModel::new(&net, EngineKind::default()).open(1);
    let mut evaluator = NetEvaluator::new(Some(&mut engine)).with_score_utility(utility);
    let build = |spec: &str| -> Result<Box<dyn Agent<Extreme>>, String> {
        oxo_player::build_any_agent::<Extreme>(&spec.parse().map_err(|e| format!("{e}"))?)
            .map_err(|e| e.to_string())
    };
    let mut judged = Vec::new();
    let (mut decisive, mut by_pattern, mut behind) = (0, 0, 0);
    for number in 0..games {
        let mut agents = [build(a)?, build(b)?];
        let positions = play(&mut agents, number);
        let end = positions.last().expect("a game has positions");
        let Some(Outcome::Win(winner)) = end.outcome() else {
            continue;
        };
        decisive += 1;
        by_pattern += usize::from(end.won_outright());
        let points = |player| board_points(end.won_boards(player));
        behind += usize::from(points(winner) <= points(winner.other()));
        judged.extend(judge(&mut evaluator, &positions, winner, number));
    }
    println!(
        "{games} games: {decisive} decisive, {by_pattern} of them won by a big-board pattern, \
         {behind} by a winner not ahead on board points"
    );
    report(&judged);
    report_signs(&judged, [a, b]);
    Ok(())
}

/// The judgements of every position of game `number`, which `winner` won, but the last; the
/// net judges them in one batch.
fn judge(
    evaluator: &mut NetEvaluator,
    positions: &[Extreme],
    winner: Player,
    number: u64,
) -> Vec<Judged> {
    let open = &positions[..positions.len() - 1];
    let mut logits = vec![0.0; open.len() * Extreme::NUM_ACTIONS];
    let mut values = vec![0.0; open.len()];
    evaluator.evaluate(open, &mut logits, &mut values);
    open.iter()
        .zip(values)
        .enumerate()
        .map(|(ply, (position, net))| Judged {
            phase: ply * PHASES / positions.len(),
            agent: agent_to_move(position, number),
            won: position.to_move() == winner,
            net,
            eval: position.evaluate(),
            progress: big_pattern_progress(position, winner),
        })
        .collect()
}

/// The agent to move in game `number` (0 for `AGENT_A`, 1 for `AGENT_B`): agent
/// `number % 2` plays X.
fn agent_to_move(position: &Extreme, number: u64) -> usize {
    position.to_move().index() ^ (number % 2) as usize
}

/// Prints each phase's concordance of the net and of the evaluation, then the same by how
/// far the eventual winner is towards a big-board pattern.
fn report(judged: &[Judged]) {
    println!("phase  positions  net concordance  evaluation concordance");
    for phase in 0..PHASES {
        row(&format!("{}/{PHASES}", phase + 1), judged, |j| {
            j.phase == phase
        });
    }
    println!("winner's boards in its best open big pattern:");
    for progress in 0..=3 {
        row(&format!("{progress}"), judged, |j| j.progress == progress);
    }
}

/// One line of the report: the positions that `keep` selects, their count and the two
/// concordances.
fn row(label: &str, judged: &[Judged], keep: impl Fn(&Judged) -> bool) {
    let part: Vec<&Judged> = judged.iter().filter(|j| keep(j)).collect();
    println!(
        "{label:<5}  {:>9}  {:>15.3}  {:>22.3}",
        part.len(),
        concordance(&part, |j| j.net),
        concordance(&part, |j| j.eval)
    );
}

/// Prints, for each phase and each agent to move, the share of positions whose net value and
/// whose evaluation favour the side that went on to win.
fn report_signs(judged: &[Judged], agents: [&String; 2]) {
    println!("agent A: {}, agent B: {}", agents[0], agents[1]);
    println!("phase  agent to move  positions  net favours winner  evaluation favours winner");
    for phase in 0..PHASES {
        for agent in 0..2 {
            let part: Vec<&Judged> = judged
                .iter()
                .filter(|j| j.phase == phase && j.agent == agent)
                .collect();
            if part.is_empty() {
                continue;
            }
            println!(
                "{:<5}  {:<13}  {:>9}  {:>18.3}  {:>25.3}",
                format!("{}/{PHASES}", phase + 1),
                if agent == 0 { "A" } else { "B" },
                part.len(),
                favours_winner(&part, |j| j.net),
                favours_winner(&part, |j| j.eval)
            );
        }
    }
}

/// `player`'s won boards in the best big-board pattern still open to it, capped at 3.
fn big_pattern_progress(position: &Extreme, player: Player) -> usize {
    let mine = position.won_boards(player);
    let blocked = position.closed_boards() & !mine;
    PATTERNS
        .iter()
        .filter(|&&pattern| pattern & blocked == 0)
        .map(|&pattern| (pattern & mine).count_ones() as usize)
        .max()
        .unwrap_or(0)
        .min(3)
}

/// The share of `judged` whose `judge` value, from the mover's view, favours the side that
/// went on to win (0 counts half).
fn favours_winner(judged: &[&Judged], judge: impl Fn(&Judged) -> f32) -> f64 {
    let credit = |j: &&Judged| {
        let value = judge(j);
        if value == 0.0 {
            0.5
        } else if (value > 0.0) == j.won {
            1.0
        } else {
            0.0
        }
    };
    judged.iter().map(credit).sum::<f64>() / judged.len() as f64
}

/// The share of (winner's, loser's) position pairs in which `judge` rates the winner's
/// higher, ties counting half: the area under the ROC curve, by sorting.
fn concordance(judged: &[&Judged], judge: impl Fn(&Judged) -> f32) -> f64 {
    let mut rated: Vec<(f32, bool)> = judged.iter().map(|j| (judge(j), j.won)).collect();
    rated.sort_by(|x, y| x.0.total_cmp(&y.0));
    let (mut losers_below, mut favourable) = (0.0, 0.0);
    let mut start = 0;
    while start < rated.len() {
        let end = start + rated[start..].partition_point(|r| r.0 == rated[start].0);
        let wins = rated[start..end].iter().filter(|r| r.1).count() as f64;
        let losses = (end - start) as f64 - wins;
        favourable += wins * (losers_below + losses / 2.0);
        losers_below += losses;
        start = end;
    }
    let pairs = (rated.len() as f64 - losers_below) * losers_below;
    if pairs == 0.0 {
        0.5
    } else {
        favourable / pairs
    }
}

/// Every position of game `number` between `agents`, the final one included: two random
/// moves seeded by `number`, then agent `number % 2` as X.
fn play(agents: &mut [Box<dyn Agent<Extreme>>; 2], number: u64) -> Vec<Extreme> {
    let mut rng = SmallRng::seed_from_u64(number);
    let mut positions = vec![Extreme::new()];
    for ply in 0.. {
        let mut game = *positions.last().expect("the first position is there");
        if game.is_over() {
            break;
        }
        let action = if ply < OPENING_PLIES {
            game.random_action(&mut rng)
        } else {
            agents[agent_to_move(&game, number)].choose(&game)
        };
        game.play(action);
        positions.push(game);
    }
    positions
}
