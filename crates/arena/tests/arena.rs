//! Tournaments on tictactoe, where the right answers are known.

use oxo_agents::AgentSpec;
use oxo_arena::{ArenaConfig, run_tournament};
use oxo_variants::tictactoe::TicTacToe;

fn tournament(agents: &str, games: usize, seed: u64) -> oxo_arena::Report {
    let specs = AgentSpec::parse_list(agents).unwrap();
    let config = ArenaConfig {
        games_per_pair: games,
        opening_plies: 0,
        seed,
    };
    run_tournament::<TicTacToe>(&specs, &config, &|| {}).unwrap()
}

#[test]
fn every_pairing_plays_each_opening_with_both_colours() {
    let report = tournament("random,greedy,uct:sims=50", 10, 3);
    assert_eq!(report.games.len(), 3 * 10);
    for (a, b) in [(0, 1), (0, 2), (1, 2)] {
        for opening in 0..5 {
            let count = |x, o| {
                report
                    .games
                    .iter()
                    .filter(|g| g.x == x && g.o == o && g.opening == opening)
                    .count()
            };
            assert_eq!((count(a, b), count(b, a)), (1, 1));
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_tournament() {
    let results = |seed| {
        let report = tournament("random,greedy:seed=4,alphabeta:depth=2", 8, seed);
        report
            .games
            .iter()
            .map(|g| (g.x, g.o, g.result, g.plies))
            .collect::<Vec<_>>()
    };
    assert_eq!(results(11), results(11));
}

#[test]
fn the_solver_never_loses_and_outrates_random() {
    let report = tournament("random,solver", 40, 5);
    let solver = &report.standings[1];
    assert_eq!(solver.losses, 0);
    assert!(solver.wins > 20, "{solver:?}");
    assert_eq!(report.standings[0].rating.elo, 0.0);
    assert!(solver.rating.low > 0.0, "{:?}", solver.rating);
}

#[test]
fn the_report_serialises_and_draws_a_chart() {
    let report = tournament("random,greedy", 4, 1);
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["variant"], "tictactoe");
    assert_eq!(json["standings"][1]["agent"], "greedy");
    assert!(json["standings"][1]["rating"]["elo"].is_number());
    let svg = oxo_arena::chart::ratings_svg(&report);
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains(">greedy<") && svg.contains(">random<"));
}

#[test]
fn a_bad_spec_fails_before_any_game() {
    let specs = AgentSpec::parse_list("random,solver:depth=3").unwrap();
    let config = ArenaConfig {
        games_per_pair: 2,
        opening_plies: 0,
        seed: 1,
    };
    let error = run_tournament::<TicTacToe>(&specs, &config, &|| panic!("a game was played"));
    assert!(error.unwrap_err().to_string().contains("depth"));
}

/// Each game's `moves`, opening included, replayed from the empty board give its recorded
/// length, result and scores, and the two games of an opening share its random moves.
#[test]
fn recorded_moves_replay_to_the_recorded_end() {
    use oxo_rules::{Game, Outcome, Player};
    let specs = AgentSpec::parse_list("random,greedy").unwrap();
    let config = ArenaConfig {
        games_per_pair: 8,
        opening_plies: 2,
        seed: 5,
    };
    let report = run_tournament::<TicTacToe>(&specs, &config, &|| {}).unwrap();
    for game in &report.games {
        assert_eq!(game.moves.len(), game.plies);
        let mut board = TicTacToe::new();
        for text in &game.moves {
            let action = TicTacToe::parse_action(text).expect("docs/RULES.md notation");
            assert!(board.is_legal(action), "{text} in {:?}", game.moves);
            board.play(action);
        }
        assert!(board.is_over());
        let result = match board.outcome() {
            Some(Outcome::Win(Player::X)) => "x",
            Some(Outcome::Win(Player::O)) => "o",
            _ => "draw",
        };
        assert_eq!((result, board.scores()), (game.result, game.scores));
        let twin = report
            .games
            .iter()
            .find(|g| g.opening == game.opening && g.x == game.o)
            .expect("the same opening with colours swapped");
        assert_eq!(twin.moves[..2], game.moves[..2]);
    }
}
