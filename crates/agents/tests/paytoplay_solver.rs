//! The exact paytoplay solution: its value, and the solver against every other agent.

use oxo_agents::{Agent, AgentSpec, build_agent, shared_table};
use oxo_rules::{Game, Outcome, Player};
use oxo_variants::paytoplay::PayToPlay;
use rand::SeedableRng;
use rand::rngs::SmallRng;

fn agent(spec: &str) -> Box<dyn Agent<PayToPlay>> {
    build_agent::<PayToPlay>(&spec.parse::<AgentSpec>().unwrap()).unwrap()
}

/// Plays one game from the start; returns the outcome.
fn play(x: &mut dyn Agent<PayToPlay>, o: &mut dyn Agent<PayToPlay>) -> Outcome {
    let mut game = PayToPlay::new();
    while !game.is_over() {
        let action = match game.to_move() {
            Player::X => x.choose(&game),
            Player::O => o.choose(&game),
        };
        game.play(action);
    }
    game.outcome().unwrap()
}

#[test]
fn the_second_player_wins_paytoplay_with_perfect_play() {
    let table = shared_table::<PayToPlay>();
    assert_eq!(
        table.lock().unwrap().value(&PayToPlay::new()),
        -1,
        "X to move loses"
    );
}

#[test]
fn the_solver_never_loses_as_o_and_wins_every_game_it_can() {
    for opponent in ["random", "greedy", "alphabeta:depth=4", "uct:sims=300"] {
        for seed in 0..10 {
            let mut solver = agent(&format!("solver:seed={seed}"));
            let separator = if opponent.contains(':') { ',' } else { ':' };
            let mut other = agent(&format!("{opponent}{separator}seed={seed}"));
            let outcome = play(other.as_mut(), solver.as_mut());
            assert_eq!(
                outcome,
                Outcome::Win(Player::O),
                "{opponent} as X, seed {seed}"
            );
        }
    }
}

#[test]
fn the_solver_keeps_the_exact_value_on_sampled_positions() {
    let table = shared_table::<PayToPlay>();
    let mut solver = agent("solver");
    let mut rng = SmallRng::seed_from_u64(3);
    for _ in 0..300 {
        let mut game = PayToPlay::new();
        while !game.is_over() {
            let value = table.lock().unwrap().value(&game);
            let choice = solver.choose(&game);
            assert_eq!(
                table.lock().unwrap().action_value(&game, choice),
                value,
                "{game}"
            );
            game.play(game.random_action(&mut rng));
        }
    }
}
