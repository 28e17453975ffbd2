//! Encoding tests for every variant: the planes are fully written and in range, the legal
//! planes match `legal_actions`, and symmetric positions encode to permuted planes.

use oxo_encode::Encode;
use oxo_rules::{ActionList, Game};
use oxo_variants::extreme::Extreme;
use oxo_variants::tictactoe::TicTacToe;
use oxo_variants::ultimate::Ultimate;
use oxo_variants::xando::XAndO;
use oxo_variants::{Variant, with_variant};
use rand::SeedableRng;
use rand::rngs::SmallRng;

/// Encodes `game` into a buffer poisoned with NaN, so a float the encoder forgot shows up.
fn encode<G: Encode>(game: &G) -> Vec<f32> {
    let mut out = vec![f32::NAN; G::INPUT_SIZE + 3];
    game.encode(&mut out);
    assert!(
        out[G::INPUT_SIZE..].iter().all(|x| x.is_nan()),
        "wrote past INPUT_SIZE"
    );
    out.truncate(G::INPUT_SIZE);
    out
}

/// The index of the plane whose description starts with `prefix`.
fn plane<G: Encode>(prefix: &str) -> Option<usize> {
    G::plane_names()
        .iter()
        .position(|name| name.starts_with(prefix))
}

/// Checks one position: range, legal planes, symmetries.
fn check_position<G: Encode>(game: &G) {
    let cells = G::WIDTH * G::HEIGHT;
    let planes = encode(game);
    for (i, x) in planes.iter().enumerate() {
        assert!(
            x.is_finite() && x.abs() <= 3.0,
            "{}: plane '{}' cell {} is {x} in\n{game}",
            G::NAME,
            G::plane_names()[i / cells],
            i % cells
        );
    }

    // The legal planes hold exactly the legal actions that have a cell.
    let claim = plane::<G>("legal:")
        .or_else(|| plane::<G>("legal claim:"))
        .expect("a legal plane");
    let blacken = plane::<G>("legal blacken:");
    let mut expected = vec![0.0f32; planes.len()];
    let mut legal = ActionList::new();
    game.legal_actions(&mut legal);
    for &action in &legal {
        let action = action as usize;
        if action < cells {
            expected[claim * cells + action] = 1.0;
        } else if let Some(blacken) = blacken {
            expected[blacken * cells + action - cells] = 1.0;
        }
    }
    for p in [Some(claim), blacken].into_iter().flatten() {
        let range = p * cells..(p + 1) * cells;
        assert_eq!(
            planes[range.clone()],
            expected[range],
            "{}: legal plane {p} in\n{game}",
            G::NAME
        );
    }

    // A symmetry moves every plane's cell c to map_action(sym, c).
    for sym in 1..G::NUM_SYMMETRIES {
        let moved = encode(&game.transformed(sym));
        for p in 0..G::PLANES {
            for cell in 0..cells {
                let to = G::map_action(sym, cell as u16) as usize;
                assert_eq!(
                    moved[p * cells + to],
                    planes[p * cells + cell],
                    "{}: symmetry {sym}, plane '{}', cell {cell} in\n{game}",
                    G::NAME,
                    G::plane_names()[p]
                );
            }
        }
    }
}

/// Every registered variant: every position of a few random games (more for small games, so
/// that each variant costs about the same).
#[test]
fn every_variant_encodes_every_position_by_the_contract() {
    for variant in Variant::ALL {
        with_variant!(variant, G => {
            let cells = G::WIDTH * G::HEIGHT;
            check_variant::<G>((100_000 / (G::MAX_PLIES * cells)).clamp(2, 50));
        });
    }
}

/// Checks every position of `games` random games.
fn check_variant<G: Encode>(games: usize) {
    assert_eq!(
        G::plane_names().len(),
        G::PLANES,
        "{}: one name per plane",
        G::NAME
    );
    assert_eq!(G::INPUT_SIZE, G::PLANES * G::WIDTH * G::HEIGHT);
    let mut rng = SmallRng::seed_from_u64(5);
    for _ in 0..games {
        let mut game = G::new();
        check_position(&game);
        while !game.is_over() {
            game.play(game.random_action(&mut rng));
            check_position(&game);
        }
    }
}

/// xando's gain planes: what a symbol on each empty square adds to its player's score. With
/// X on A6 and B6 (a run of two, +1), a third in a row makes a run of three (-5): a gain of -6
/// on C6; joining nothing gains 0; A5 makes two twos (with A6 down the column, with B6 along
/// the diagonal), +2.
#[test]
fn xando_gains_are_one_move_score_changes() {
    let mut game = XAndO::new();
    for blacken in ["#A1", "#F1", "#A2", "#F2"] {
        game.play(XAndO::parse_action(blacken).unwrap());
    }
    for text in ["A6", "D1", "B6", "E1"] {
        game.play(XAndO::parse_action(text).unwrap());
    }
    // X to move, with A6 and B6; O holds D1 and E1.
    let planes = encode(&game);
    let cells = 36;
    let mover = plane::<XAndO>("mover gain:").unwrap() * cells;
    let opponent = plane::<XAndO>("opponent gain:").unwrap() * cells;
    let cell = |text: &str| XAndO::parse_action(text).unwrap() as usize;
    assert_eq!(planes[mover + cell("C6")] * 25.0, -6.0);
    assert_eq!(planes[mover + cell("D3")] * 25.0, 0.0);
    assert_eq!(planes[mover + cell("A5")] * 25.0, 2.0);
    assert_eq!(planes[opponent + cell("C1")] * 25.0, -6.0);
    assert_eq!(planes[opponent + cell("B6")], 0.0, "not empty");
}

/// The mover's and the opponent's marks swap places when the other player is to move.
#[test]
fn encodes_from_the_movers_point_of_view() {
    let mut game = TicTacToe::new();
    game.play(4); // X takes the centre; O to move.
    let planes = encode(&game);
    assert_eq!(planes[4], 0.0, "the centre is not the mover's (O's)");
    assert_eq!(planes[9 + 4], 1.0, "the centre is the opponent's (X's)");
    game.play(0); // O takes A1; X to move.
    let planes = encode(&game);
    assert_eq!(
        (planes[4], planes[0]),
        (1.0, 0.0),
        "X, the mover, holds the centre"
    );
    assert_eq!(
        (planes[9 + 4], planes[9]),
        (0.0, 1.0),
        "O, the opponent, holds A1"
    );
}

/// A finished game has no legal cells.
#[test]
fn finished_games_have_an_empty_legal_plane() {
    let mut game = TicTacToe::new();
    for action in [0, 3, 1, 4, 2] {
        game.play(action);
    }
    assert!(game.is_over());
    let planes = encode(&game);
    assert!(planes[18..27].iter().all(|&x| x == 0.0));
}

/// Ultimate's rule planes: O holds cells 4, 5 and 8 of board 0 (X holds 0), so each cell at
/// local position 0 shows X, to move, that O could win the board it sends to, and cells 2 and 3
/// (completing 2-5-8 and 3-4-5) show where O would win it.
#[test]
fn ultimate_shows_where_each_move_sends_and_which_cells_win_a_board() {
    use oxo_variants::ultimate::cell_of;
    let mut game = Ultimate::new();
    for (board, local) in [(0, 0), (0, 4), (4, 0), (0, 8), (8, 0), (0, 5)] {
        game.play(cell_of(board, local) as u16);
    }
    assert_eq!(game.to_move(), oxo_rules::Player::X);
    let planes = encode(&game);
    let at = |name: &str, cell: usize| planes[plane::<Ultimate>(name).expect(name) * 81 + cell];
    for board in 0..9 {
        for local in 0..9 {
            let cell = cell_of(board, local);
            assert_eq!(
                at("sends to opponent threat:", cell),
                (local == 0) as u8 as f32
            );
            assert_eq!(at("sends to mover threat:", cell), 0.0);
            assert_eq!(at("sends to closed:", cell), 0.0);
            let wins = (board == 0 && (local == 2 || local == 3)) as u8 as f32;
            assert_eq!(
                at("opponent wins board:", cell),
                wins,
                "board {board} cell {local}"
            );
            assert_eq!(at("mover wins board:", cell), 0.0);
        }
    }
}
/// Extreme's rule planes: X holds three of row 1 on small board 0, so every cell at local
/// position 0 (each sends to board 0) shows O that X could win the board sent to, and the
/// cell completing the row shows where X would win it.
#[test]
fn extreme_shows_where_each_move_sends_and_which_cells_win_a_board() {
    use oxo_variants::extreme::cell_at;
    let mut game = Extreme::new();
    for (board, local) in [(0, 5), (5, 0), (0, 6), (6, 0), (0, 7)] {
        game.play(cell_at(board, local) as u16);
    }
    let planes = encode(&game);
    let at = |name: &str, cell: usize| planes[plane::<Extreme>(name).expect(name) * 256 + cell];
    for board in 0..16 {
        for local in 0..16 {
            let cell = cell_at(board, local);
            let sends_to_threat = (local == 0) as u8 as f32;
            assert_eq!(at("sends to opponent threat:", cell), sends_to_threat);
            assert_eq!(at("sends to mover threat:", cell), 0.0);
            assert_eq!(at("sends to closed:", cell), 0.0);
            let wins = (board == 0 && local == 4) as u8 as f32;
            assert_eq!(
                at("opponent wins board:", cell),
                wins,
                "board {board} cell {local}"
            );
            assert_eq!(at("mover wins board:", cell), 0.0);
        }
    }
    // X takes the board (and a bonus move): now every local position 0 sends to a board X won.
    game.play(cell_at(7, 0) as u16); // O, sent to board 7.
    game.play(cell_at(0, 4) as u16); // X wins board 0, then plays its bonus move.
    assert!(game.is_bonus_move());
    let planes = encode(&game);
    let at = |name: &str, cell: usize| planes[plane::<Extreme>(name).expect(name) * 256 + cell];
    for board in 0..16 {
        assert_eq!(at("sends to closed:", cell_at(board, 0)), 1.0);
        assert_eq!(at("sends to mover won:", cell_at(board, 0)), 1.0);
        assert_eq!(at("sends to opponent won:", cell_at(board, 0)), 0.0);
        assert_eq!(at("sends to closed:", cell_at(board, 1)), 0.0);
    }
}
