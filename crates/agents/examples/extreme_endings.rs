//! How extreme games between two agents end: on the tie-break (every board closed) or by a
//! big-board pattern, and how often a pattern's winner is behind on board points, which is
//! where the trainer's score target (the final margin of board points) and the result
//! disagree (docs/experiments.md, section 'extreme').
//!
//! `cargo run --release -p oxo-agents --example extreme_endings -- A B GAMES`, e.g.
//! `greedy:seed=1 greedy:seed=2 200`. Each game opens with two random moves (seeded by its
//! number) and the agents swap sides every game.

use oxo_agents::{Agent, build_agent};
use oxo_rules::{Game, Outcome};
use oxo_variants::extreme::Extreme;
use rand::SeedableRng;
use rand::rngs::SmallRng;

/// Random moves before the agents take over.
const OPENING_PLIES: usize = 2;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [a, b, games] = args.as_slice() else {
        return Err("usage: extreme_endings AGENT_A AGENT_B GAMES".into());
    };
    let games: u64 = games
        .parse()
        .map_err(|_| format!("GAMES must be a whole number (got {games})"))?;
    let build = |spec: &str| -> Result<Box<dyn Agent<Extreme>>, String> {
        build_agent::<Extreme>(&spec.parse().map_err(|e| format!("{e}"))?)
            .map_err(|e| e.to_string())
    };
    let (mut tie_break, mut patterns, mut behind, mut draws) = (0, 0, 0, 0);
    for number in 0..games {
        let mut agents = [build(a)?, build(b)?];
        let game = play(&mut agents, number);
        let scores = game.scores().expect("extreme keeps scores");
        match game.outcome().expect("the game is over") {
            Outcome::Draw => draws += 1,
            Outcome::Win(_) if game.closed_boards() == u16::MAX => tie_break += 1,
            Outcome::Win(winner) => {
                patterns += 1;
                if scores[winner.index()] <= scores[winner.other().index()] {
                    behind += 1;
                }
            }
        }
    }
    println!(
        "{a} vs {b}: {games} games, {tie_break} won on the tie-break, {patterns} by a pattern \
         ({behind} with the winner not ahead on points), {draws} drawn"
    );
    Ok(())
}

/// Plays game `number` to its end: two seeded random moves, then agent `number % 2` as X.
fn play(agents: &mut [Box<dyn Agent<Extreme>>; 2], number: u64) -> Extreme {
    let mut rng = SmallRng::seed_from_u64(number);
    let mut game = Extreme::new();
    for _ in 0..OPENING_PLIES {
        game.play(game.random_action(&mut rng));
    }
    while !game.is_over() {
        let side = game.to_move().index() ^ (number % 2) as usize;
        let action = agents[side].choose(&game);
        game.play(action);
    }
    game
}
