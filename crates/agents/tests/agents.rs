//! Behaviour of the agents on positions whose right answer is known.

use oxo_agents::{Agent, AgentSpec, ValueTable, build_agent, shared_table};
use oxo_rules::{ActionList, Game, Outcome, Player};
use oxo_variants::tictactoe::TicTacToe;

fn agent(spec: &str) -> Box<dyn Agent<TicTacToe>> {
    build_agent::<TicTacToe>(&spec.parse::<AgentSpec>().unwrap()).unwrap()
}

fn position(moves: &[&str]) -> TicTacToe {
    let mut game = TicTacToe::new();
    for m in moves {
        game.try_play(TicTacToe::parse_action(m).unwrap()).unwrap();
    }
    game
}

/// The spec with a `seed=` parameter added.
fn with_seed(spec: &str, seed: u64) -> String {
    let separator = if spec.contains(':') { ',' } else { ':' };
    format!("{spec}{separator}seed={seed}")
}

const SEARCHERS: [&str; 6] = [
    "greedy",
    "alphabeta:depth=2",
    "alphabeta:ms=20",
    "uct:sims=3000",
    "uct:sims=3000,playout=tactical",
    "solver",
];

#[test]
fn every_searcher_takes_an_immediate_win() {
    // X: A1 B1, O: A2 B2; X to move wins at C1.
    let game = position(&["A1", "A2", "B1", "B2"]);
    for spec in SEARCHERS {
        assert_eq!(
            TicTacToe::format_action(agent(spec).choose(&game)),
            "C1",
            "{spec}"
        );
    }
}

#[test]
fn every_searcher_blocks_an_immediate_loss() {
    // X: A1 B1 (threatens C1), O to move must block.
    let game = position(&["A1", "B2", "B1"]);
    for spec in SEARCHERS {
        assert_eq!(
            TicTacToe::format_action(agent(spec).choose(&game)),
            "C1",
            "{spec}"
        );
    }
}

#[test]
fn alphabeta_finds_a_fork() {
    // X: A1, C3; O: B2, A3 (forced block C1 next is not the point): X to move can fork at
    // C1 (threatening B1 and C2). Depth 3 sees the fork win.
    let game = position(&["A1", "B2", "C3", "A3"]);
    let choice = TicTacToe::format_action(agent("alphabeta:depth=5").choose(&game));
    let mut after = game;
    after.play(TicTacToe::parse_action(&choice).unwrap());
    let table = shared_table::<TicTacToe>();
    assert_eq!(
        -table.lock().unwrap().value(&after),
        1,
        "{choice} does not keep the win"
    );
}

#[test]
fn tictactoe_is_a_draw_and_has_5478_positions_minus_finished_ones() {
    let table = ValueTable::<TicTacToe>::solve();
    let mut table = table;
    assert_eq!(table.value(&TicTacToe::new()), 0);
    // 5,478 legal positions, of which 958 are finished and not stored.
    assert_eq!(table.len(), 5478 - 958);
}

#[test]
fn same_seed_same_game() {
    let play = |seed: u64| {
        let mut x = agent(&format!("uct:sims=200,seed={seed}"));
        let mut o = agent(&format!("alphabeta:depth=3,seed={seed}"));
        let mut game = TicTacToe::new();
        let mut moves = Vec::new();
        while !game.is_over() {
            let a = if game.to_move() == Player::X {
                x.choose(&game)
            } else {
                o.choose(&game)
            };
            game.play(a);
            moves.push(a);
        }
        moves
    };
    assert_eq!(play(3), play(3));
}

#[test]
fn uct_reuses_its_tree_across_moves() {
    let mut uct =
        oxo_agents::UctAgent::<TicTacToe>::from_spec(&"uct:sims=500".parse().unwrap()).unwrap();
    let mut game = TicTacToe::new();
    let first = uct.choose(&game);
    game.play(first);
    let mut legal = ActionList::new();
    game.legal_actions(&mut legal);
    game.play(legal[0]);
    let before = uct.nodes_searched();
    uct.choose(&game);
    assert_eq!(uct.nodes_searched() - before, 500);
    assert!(
        uct.reused_visits() > 0,
        "the subtree of the position reached was kept"
    );
}

#[test]
fn solver_never_loses_tictactoe_from_either_side() {
    for opponent in ["random", "greedy", "alphabeta:depth=2", "uct:sims=300"] {
        for seed in 0..30 {
            for solver_side in Player::BOTH {
                let mut solver = agent(&format!("solver:seed={seed}"));
                let mut other = agent(&with_seed(opponent, seed));
                let mut game = TicTacToe::new();
                while !game.is_over() {
                    let a = if game.to_move() == solver_side {
                        solver.choose(&game)
                    } else {
                        other.choose(&game)
                    };
                    game.play(a);
                }
                assert_ne!(
                    game.outcome(),
                    Some(Outcome::Win(solver_side.other())),
                    "{opponent} beat the solver"
                );
            }
        }
    }
}

#[test]
fn bad_specs_are_refused_with_reasons() {
    let err = |s: &str| {
        build_agent::<TicTacToe>(&s.parse().unwrap())
            .err()
            .unwrap()
            .to_string()
    };
    assert!(err("alphabeta:depth=0").contains("depth"));
    assert!(err("uct:sims=lots").contains("lots"));
    assert!(err("uct:playout=smart").contains("uniform or tactical"));
    assert!(err("greedy:depth=3").contains("takes seed"));
    assert!(err("wizard").contains("random, greedy, alphabeta, uct, solver"));
}

#[test]
fn solver_moves_keep_the_exact_value_on_sampled_positions() {
    let table = shared_table::<TicTacToe>();
    let mut solver = agent("solver");
    let mut random = agent("random:seed=9");
    for _ in 0..200 {
        let mut game = TicTacToe::new();
        while !game.is_over() {
            let value = table.lock().unwrap().value(&game);
            let choice = solver.choose(&game);
            assert_eq!(table.lock().unwrap().action_value(&game, choice), value);
            game.play(random.choose(&game));
        }
    }
}

#[test]
fn random_play_repeats_with_its_seed_and_is_always_legal() {
    let play = |seed| {
        let mut agent = oxo_agents::RandomAgent::new(seed);
        let mut game = TicTacToe::new();
        let mut moves = Vec::new();
        while !game.is_over() {
            let action = agent.choose(&game);
            assert!(game.is_legal(action));
            game.play(action);
            moves.push(action);
        }
        moves
    };
    assert_eq!(play(5), play(5));
}
