//! The shipped models of the solvable variants play perfectly against the exact solver
//! (the project's goal for them: they "never lose to the solver"). From every opening of two
//! plies, with either colour, the shipped net at `oxo play`'s default 200 simulations must
//! score at least the position's game-theoretic value: it may lose only a position that is
//! lost whatever it plays (paytoplay's start is a forced win for O, so "never loses" cannot
//! mean more).

use oxo_agents::{Agent, Evaluate, SolverAgent, ValueTable};
use oxo_engine::EngineKind;
use oxo_nn::Encode;
use oxo_play::SchemeName;
use oxo_play::play_search::PlaySearch;
use oxo_player::{ModelFile, NetAgent, shipped_model};
use oxo_rules::{Action, ActionList, Game, Player};
use oxo_variants::paytoplay::PayToPlay;
use oxo_variants::tictactoe::TicTacToe;

/// The simulations `oxo play` gives the shipped model by default.
const SIMS: u32 = 200;

/// Every position two plies from the start that is not over, with its move list.
fn openings<G: Game>() -> Vec<(Vec<Action>, G)> {
    let mut out = Vec::new();
    let (mut first, mut second) = (ActionList::new(), ActionList::new());
    G::new().legal_actions(&mut first);
    for &a in first.iter() {
        let mut one = G::new();
        one.play(a);
        if one.is_over() {
            continue;
        }
        one.legal_actions(&mut second);
        for &b in second.iter() {
            let mut two = one;
            two.play(b);
            if !two.is_over() {
                out.push((vec![a, b], two));
            }
        }
    }
    out
}

/// Plays the shipped net, searching by `scheme`, against the solver from every opening with
/// both colours; returns the games the net scored below the opening's exact value, as
/// readable lines.
fn games_below_theory<G: Encode + Evaluate>(scheme: SchemeName) -> Vec<String> {
    let path = shipped_model(G::NAME).expect("a model ships for this variant");
    let model = ModelFile::open::<G>(&path).expect("the shipped model is whole");
    let mut net = NetAgent::<G>::load(
        &model,
        EngineKind::default(),
        None,
        PlaySearch::new(scheme, SIMS),
        "net",
    )
    .expect("the shipped model loads");
    let mut solver = SolverAgent::<G>::from_spec(&"solver".parse().unwrap()).unwrap();
    let mut table = ValueTable::<G>::solve();
    let mut below = Vec::new();
    for (moves, start) in openings::<G>() {
        for net_side in Player::BOTH {
            let exact = f32::from(table.value(&start));
            let theory = if start.to_move() == net_side {
                exact
            } else {
                -exact
            };
            let mut game = start;
            let mut line = moves.clone();
            while !game.is_over() {
                let action = if game.to_move() == net_side {
                    net.choose(&game)
                } else {
                    solver.choose(&game)
                };
                game.play(action);
                line.push(action);
            }
            let result = game
                .outcome()
                .expect("the game is over")
                .value_for(net_side);
            if result < theory {
                below.push(format!(
                    "net as {net_side:?}: actions {line:?}: result {result}, exact value {theory}"
                ));
            }
        }
    }
    below
}

#[test]
fn shipped_tictactoe_model_never_scores_below_the_solver() {
    let below = games_below_theory::<TicTacToe>(SchemeName::Gumbel);
    assert!(below.is_empty(), "{}", below.join("\n"));
}

/// The same by PUCT (`net:...,search=puct`), the search that plays ultimate's goal matches.
#[test]
fn shipped_tictactoe_model_never_scores_below_the_solver_by_puct() {
    let below = games_below_theory::<TicTacToe>(SchemeName::Puct);
    assert!(below.is_empty(), "{}", below.join("\n"));
}

#[test]
fn shipped_paytoplay_model_never_scores_below_the_solver() {
    let below = games_below_theory::<PayToPlay>(SchemeName::Gumbel);
    assert!(below.is_empty(), "{}", below.join("\n"));
}
