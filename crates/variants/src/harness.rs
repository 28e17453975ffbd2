//! Checks shared by every variant's test file: invariants over random games, notation round
//! trips, and move-by-move agreement with a slow reference implementation.
#![allow(dead_code)] // each test binary uses a different subset

use oxo_rules::{Action, ActionList, Game, Outcome, Player, PlayoutPolicy, playout};
use rand::SeedableRng;
use rand::rngs::SmallRng;

/// A slow, obviously-correct implementation of a variant's rules, written independently of the
/// fast one (plain arrays, no bitboards, no lookup tables).
pub trait Reference: Clone {
    /// The starting position.
    fn new() -> Self;
    /// The player to act.
    fn to_move(&self) -> Player;
    /// Every legal action, in increasing index order; empty when the game is over.
    fn legal(&self) -> Vec<Action>;
    /// Plays a legal action.
    fn play(&mut self, action: Action);
    /// The outcome, once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// Scores or balances as `docs/RULES.md` defines them for display, or `None`.
    fn scores(&self) -> Option<[i32; 2]>;
}

/// The legal actions of `game` as a vector.
pub fn legal<G: Game>(game: &G) -> Vec<Action> {
    let mut list = ActionList::new();
    game.legal_actions(&mut list);
    list.to_vec()
}

/// Plays moves given in the variant's notation from the start, panicking on an illegal one.
pub fn replay<G: Game>(moves: &[&str]) -> G {
    let mut game = G::new();
    for text in moves {
        let action = G::parse_action(text).unwrap_or_else(|e| panic!("{e}"));
        game.try_play(action)
            .unwrap_or_else(|e| panic!("{text} is illegal: {e}\n{game}"));
    }
    game
}

/// Plays `games` random games with the fast and the reference implementation side by side and
/// checks that they agree at every step: player to move, legal actions, scores, outcome.
pub fn agrees_with_reference<G: Game, R: Reference>(games: usize, seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    for game_index in 0..games {
        let mut fast = G::new();
        let mut slow = R::new();
        let mut history = Vec::new();
        loop {
            let context = || format!("game {game_index}, moves {history:?}\n{fast}");
            assert_eq!(
                fast.outcome(),
                slow.outcome(),
                "outcome differs: {}",
                context()
            );
            assert_eq!(fast.scores(), slow.scores(), "scores differ: {}", context());
            let legal_fast = legal(&fast);
            assert_eq!(
                legal_fast,
                slow.legal(),
                "legal moves differ: {}",
                context()
            );
            if fast.is_over() {
                break;
            }
            assert_eq!(
                fast.to_move(),
                slow.to_move(),
                "player differs: {}",
                context()
            );
            let action = fast.random_action(&mut rng);
            assert!(
                legal_fast.contains(&action),
                "random_action {action} not legal"
            );
            history.push(G::format_action(action));
            fast.play(action);
            slow.play(action);
        }
    }
}

/// Plays one random game and checks the invariants at every step: the game ends within
/// `MAX_PLIES`; `check` agrees with the legal list; every symmetry maps the legal set onto the
/// transformed position's legal set, keeps player, outcome, scores and cell owners, and
/// commutes with play.
pub fn random_game_invariants<G: Game>(seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut game = G::new();
    let mut plies = 0;
    loop {
        check_position(&game);
        if game.is_over() {
            break;
        }
        let action = game.random_action(&mut rng);
        for sym in 0..G::NUM_SYMMETRIES {
            let mut after_then_map = game;
            after_then_map.play(action);
            let mut map_then_after = game.transformed(sym);
            map_then_after.play(G::map_action(sym, action));
            assert_eq!(
                after_then_map.transformed(sym),
                map_then_after,
                "sym {sym} after {action}"
            );
        }
        game.play(action);
        plies += 1;
        assert!(
            plies <= G::MAX_PLIES,
            "game longer than MAX_PLIES={}",
            G::MAX_PLIES
        );
    }
}

fn check_position<G: Game>(game: &G) {
    let actions = legal(game);
    assert_eq!(
        actions.is_empty(),
        game.is_over(),
        "no legal moves iff over\n{game}"
    );
    assert!(
        actions.windows(2).all(|w| w[0] < w[1]),
        "legal moves not sorted"
    );
    for action in 0..G::NUM_ACTIONS as Action {
        assert_eq!(
            game.is_legal(action),
            actions.contains(&action),
            "check({action})\n{game}"
        );
    }
    assert!(game.check(G::NUM_ACTIONS as Action).is_err());
    assert_eq!(game.scores().is_some(), G::HAS_SCORES);
    if let (Some(outcome), Some(scores)) = (game.outcome(), game.scores()) {
        // Scoring variants: a game not won outright (by extreme's big pattern or paytoplay's
        // line, which may win with fewer points) is decided by the final scores.
        if !game.won_outright() {
            assert_eq!(
                outcome,
                Outcome::from_scores(scores),
                "by the scores\n{game}"
            );
        }
    } else {
        assert!(
            !game.won_outright(),
            "only a finished scoring game is won outright"
        );
    }
    for sym in 0..G::NUM_SYMMETRIES {
        let image = game.transformed(sym);
        let mut mapped: Vec<Action> = actions.iter().map(|&a| G::map_action(sym, a)).collect();
        mapped.sort_unstable();
        assert_eq!(legal(&image), mapped, "symmetry {sym} legal moves\n{game}");
        assert_eq!(image.outcome(), game.outcome(), "symmetry {sym} outcome");
        assert_eq!(image.scores(), game.scores(), "symmetry {sym} scores");
        assert_eq!(
            image.won_outright(),
            game.won_outright(),
            "symmetry {sym} won outright"
        );
        if !game.is_over() {
            assert_eq!(image.to_move(), game.to_move(), "symmetry {sym} player");
        }
        for cell in 0..G::WIDTH * G::HEIGHT {
            let mapped = G::map_action(sym, cell as Action) as usize;
            assert_eq!(
                image.owner(mapped),
                game.owner(cell),
                "symmetry {sym} owner of cell {cell}"
            );
        }
    }
    if !G::HAS_OWNERSHIP {
        assert!((0..G::WIDTH * G::HEIGHT).all(|cell| game.owner(cell).is_none()));
    }
    assert_eq!(game.transformed(0), *game, "symmetry 0 is the identity");
}

/// Every action formats to text that parses back to it, in upper and lower case.
pub fn notation_round_trips<G: Game>() {
    for action in 0..G::NUM_ACTIONS as Action {
        let text = G::format_action(action);
        assert_eq!(G::parse_action(&text), Ok(action), "{text}");
        assert_eq!(G::parse_action(&text.to_lowercase()), Ok(action), "{text}");
    }
    for bad in ["", " ", "Z99", "A0", "pass pass", "##A1", "A1B2", "\u{0}"] {
        if let Ok(action) = G::parse_action(bad) {
            assert_eq!(
                G::format_action(action).to_lowercase(),
                bad.trim().to_lowercase()
            );
        }
    }
}

/// The standard test suite for a variant: invariants (proptest over seeds), notation, and
/// agreement with the reference implementation over `$games` random games.
#[macro_export]
macro_rules! standard_tests {
    ($game:ty, $reference:ty, $games:expr) => {
        proptest::proptest! {
            #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
            #[test]
            fn random_games_keep_the_invariants(seed in proptest::prelude::any::<u64>()) {
                $crate::harness::random_game_invariants::<$game>(seed);
            }
        }

        #[test]
        fn notation_round_trips() {
            $crate::harness::notation_round_trips::<$game>();
        }

        #[test]
        fn agrees_with_the_reference_implementation() {
            $crate::harness::agrees_with_reference::<$game, $reference>($games, 0x0550);
        }
    };
}

/// Plays one random game and checks at every step that [`Game::winning_action`] is a legal
/// move after which `won(before, after, mover)` says the mover won something, and `None`
/// exactly when no legal move does; and that a tactical playout from there ends.
pub fn winning_action_finds_a_winning_move<G: Game>(seed: u64, won: fn(&G, &G, Player) -> bool) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut game = G::new();
    let mut found = 0;
    while !game.is_over() {
        let mover = game.to_move();
        let wins = |action: Action| {
            let mut after = game;
            after.play(action);
            won(&game, &after, mover)
        };
        let any = legal(&game).into_iter().any(wins);
        match game.winning_action() {
            Some(action) => {
                assert!(game.is_legal(action) && wins(action), "{action}\n{game}");
                found += 1;
            }
            None => assert!(!any, "a winning move was missed\n{game}"),
        }
        let (end, _) = playout(game, PlayoutPolicy::Tactical, &mut rng);
        assert!(end.is_over());
        game.play(game.random_action(&mut rng));
    }
    assert!(game.winning_action().is_none());
    if let Some(Outcome::Win(_)) = game.outcome() {
        // The winner won something along the way, so some move was a winning move.
        assert!(found > 0, "no winning move in a game that was won");
    }
}
