//! The one game loop. Self-play, the gate, ratings and tournaments all play their games
//! through [`run_games`] (as KataGo's `GameRunner` serves self-play, matches and the
//! gatekeeper): up to `slots` games are in progress at once; in each round every [`Mover`]
//! chooses, in one call, the moves of all the games in which it is to move (a net's search
//! puts their positions in one network call), the moves are played, and the slot of a
//! finished game takes the next one.

use oxo_agents::Agent;
use oxo_rules::{Action, Game};

/// A player of many games at once: a net's batched search, a handcrafted agent, self-play
/// with its training targets.
pub trait Mover<G: Game> {
    /// Chooses a legal move in each `(slot, position)` of `to_move` (none of them over),
    /// pushing the moves to `moves` in the same order.
    fn choose(&mut self, to_move: &[(usize, G)], moves: &mut Vec<Action>);

    /// A game begins in `slot` at `start`, reached by the `opening` moves from the empty
    /// board (self-play records them). Called once per mover of the game.
    fn begin(&mut self, _slot: usize, _start: &G, _opening: &[Action]) {}

    /// Another mover of the game in `slot` played `action` at `before`: a mover that records
    /// whole games (self-play against other agents) learns the moves it did not choose.
    fn observe(&mut self, _slot: usize, _before: &G, _action: Action) {}

    /// The game in `slot` ended at `end`. Called once per mover of the game.
    fn end(&mut self, _slot: usize, _end: &G) {}
}

/// A game to play: where it starts, and which movers play it.
#[derive(Clone, Debug)]
pub struct Start<G> {
    /// The starting position.
    pub game: G,
    /// The moves from the empty board to `game`, for movers that record them (self-play);
    /// empty where the caller keeps them itself (the arena, the gate).
    pub opening: Vec<Action>,
    /// The index (in [`run_games`]'s `movers`) of the mover playing X, and of the one
    /// playing O; the same index for a mover that plays itself.
    pub movers: [usize; 2],
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Played<G> {
    /// Its place in the order the games were started (0 for the first).
    pub index: usize,
    /// How it started.
    pub start: Start<G>,
    /// The moves played after the opening.
    pub moves: Vec<Action>,
    /// The final position.
    pub end: G,
}

/// A game in progress in a slot.
struct Live<G> {
    index: usize,
    start: Start<G>,
    game: G,
    moves: Vec<Action>,
}

/// Plays every game `next` gives (until it gives `None`), at most `slots` at a time, with
/// `movers`; `on_end` receives each game as it finishes (a game that starts over at once
/// too). Deterministic for deterministic movers: games finish in the same order every time.
///
/// # Panics
/// If a mover chooses an illegal move or the wrong number of moves, or a game names a mover
/// that is not in `movers`.
pub fn run_games<G: Game>(
    movers: &mut [&mut dyn Mover<G>],
    slots: usize,
    next: &mut dyn FnMut() -> Option<Start<G>>,
    on_end: &mut dyn FnMut(Played<G>),
) {
    let mut runner = Runner {
        movers,
        next,
        on_end,
        started: 0,
        live: Vec::with_capacity(slots.max(1)),
    };
    for slot in 0..slots.max(1) {
        let game = runner.fill(slot);
        let done = game.is_none();
        runner.live.push(game);
        if done {
            break;
        }
    }
    let mut to_move = Vec::with_capacity(runner.live.len());
    let mut moves = Vec::with_capacity(runner.live.len());
    while runner.live.iter().any(Option::is_some) {
        for m in 0..runner.movers.len() {
            to_move.clear();
            for (slot, game) in runner.live.iter().enumerate() {
                if let Some(g) = game.as_ref().filter(|g| g.mover() == m) {
                    to_move.push((slot, g.game));
                }
            }
            if to_move.is_empty() {
                continue;
            }
            moves.clear();
            runner.movers[m].choose(&to_move, &mut moves);
            assert_eq!(moves.len(), to_move.len(), "a move for every game");
            for (&(slot, _), &action) in to_move.iter().zip(&moves) {
                let game = runner.live[slot].as_mut().expect("a live game");
                assert!(game.game.is_legal(action), "a mover chose an illegal move");
                for other in distinct(game.start.movers).filter(|&o| o != m) {
                    runner.movers[other].observe(slot, &game.game, action);
                }
                game.game.play(action);
                game.moves.push(action);
                if game.game.is_over() {
                    let done = runner.live[slot].take().expect("a live game");
                    runner.finish(slot, done);
                    runner.live[slot] = runner.fill(slot);
                }
            }
        }
    }
}

/// [`run_games`]'s state between rounds.
struct Runner<'a, 'm, G: Game> {
    movers: &'a mut [&'m mut dyn Mover<G>],
    next: &'a mut dyn FnMut() -> Option<Start<G>>,
    on_end: &'a mut dyn FnMut(Played<G>),
    started: usize,
    live: Vec<Option<Live<G>>>,
}

impl<G: Game> Runner<'_, '_, G> {
    /// The next game not over at its start for `slot`, or `None` when there is none; games
    /// over at their start are finished on the way.
    fn fill(&mut self, slot: usize) -> Option<Live<G>> {
        loop {
            let start = (self.next)()?;
            for m in distinct(start.movers) {
                self.movers[m].begin(slot, &start.game, &start.opening);
            }
            self.started += 1;
            let live = Live {
                index: self.started - 1,
                game: start.game,
                start,
                moves: Vec::new(),
            };
            if !live.game.is_over() {
                return Some(live);
            }
            self.finish(slot, live);
        }
    }

    /// Tells the game's movers that it ended, and hands it to `on_end`.
    fn finish(&mut self, slot: usize, done: Live<G>) {
        for m in distinct(done.start.movers) {
            self.movers[m].end(slot, &done.game);
        }
        (self.on_end)(Played {
            index: done.index,
            start: done.start,
            moves: done.moves,
            end: done.game,
        });
    }
}

impl<G: Game> Live<G> {
    /// The index of the mover to move.
    fn mover(&self) -> usize {
        self.start.movers[self.game.to_move().index()]
    }
}

/// The movers of a game, each once.
fn distinct(movers: [usize; 2]) -> impl Iterator<Item = usize> {
    let second = (movers[1] != movers[0]).then_some(movers[1]);
    std::iter::once(movers[0]).chain(second)
}

/// A handcrafted (or any one-move-at-a-time) [`Agent`] as a [`Mover`]: it chooses the moves
/// one after the other, each with the agent's full budget.
pub struct AgentMover<G: Game>(pub Box<dyn Agent<G>>);

impl<G: Game> Mover<G> for AgentMover<G> {
    fn choose(&mut self, to_move: &[(usize, G)], moves: &mut Vec<Action>) {
        moves.extend(to_move.iter().map(|(_, game)| self.0.choose(game)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oxo_rules::ActionList;
    use oxo_variants::tictactoe::TicTacToe;

    /// Plays the first legal move, and logs what it was told.
    #[derive(Default)]
    struct First {
        chosen: usize,
        begun: Vec<usize>,
        ended: Vec<usize>,
        largest_call: usize,
        /// The moves of the other mover it was told of, each with the position before it.
        observed: Vec<(TicTacToe, Action)>,
    }

    impl Mover<TicTacToe> for First {
        fn choose(&mut self, to_move: &[(usize, TicTacToe)], moves: &mut Vec<Action>) {
            let mut legal = ActionList::new();
            for (_, game) in to_move {
                game.legal_actions(&mut legal);
                moves.push(legal[0]);
            }
            self.chosen += to_move.len();
            self.largest_call = self.largest_call.max(to_move.len());
        }
        fn begin(&mut self, slot: usize, _: &TicTacToe, _: &[Action]) {
            self.begun.push(slot);
        }
        fn observe(&mut self, _: usize, before: &TicTacToe, action: Action) {
            self.observed.push((*before, action));
        }
        fn end(&mut self, slot: usize, _: &TicTacToe) {
            self.ended.push(slot);
        }
    }

    fn starts(count: usize, movers: [usize; 2]) -> impl FnMut() -> Option<Start<TicTacToe>> {
        let mut given = 0;
        move || {
            given += 1;
            (given <= count).then(|| Start {
                game: TicTacToe::new(),
                opening: Vec::new(),
                movers,
            })
        }
    }

    /// Every game is played to its end once, at most `slots` at a time, each mover batching
    /// the games where it is to move; a mover that plays itself hears of each game once.
    #[test]
    fn plays_every_game_once_batching_across_slots() {
        let mut one = First::default();
        let mut ended = Vec::new();
        run_games(&mut [&mut one], 3, &mut starts(7, [0, 0]), &mut |p| {
            ended.push(p.index);
            // The first-legal-move line: X takes 0, 2, 4, 6 against 1, 3, 5: X wins by the
            // diagonal 2-4-6 at the seventh move.
            assert_eq!(p.moves.len(), 7);
            assert_eq!(
                p.end.outcome(),
                Some(oxo_rules::Outcome::Win(oxo_rules::Player::X))
            );
        });
        ended.sort();
        assert_eq!(ended, (0..7).collect::<Vec<_>>());
        assert_eq!(one.begun.len(), 7);
        assert_eq!(one.ended.len(), 7);
        assert_eq!(one.chosen, 49);
        assert_eq!(one.largest_call, 3);
        assert!(
            one.observed.is_empty(),
            "a mover that plays itself observes nothing"
        );
    }

    /// With two movers, each chooses only where it is to move: X's mover made X's moves;
    /// each is told of every move of the other, at the position it was played in.
    #[test]
    fn each_side_moves_for_its_colour() {
        let (mut x, mut o) = (First::default(), First::default());
        run_games(
            &mut [&mut x, &mut o],
            4,
            &mut starts(4, [0, 1]),
            &mut |_| {},
        );
        assert_eq!((x.chosen, o.chosen), (16, 12));
        assert_eq!((x.observed.len(), o.observed.len()), (12, 16));
        for (before, action) in &x.observed {
            assert_eq!(before.to_move(), oxo_rules::Player::O);
            assert!(before.is_legal(*action));
        }
        // Every game follows the first-legal-move line, so O's first move is cell 1.
        assert_eq!(x.observed[0].1, 1);
        let (mut x, mut o) = (First::default(), First::default());
        run_games(
            &mut [&mut x, &mut o],
            4,
            &mut starts(4, [1, 0]),
            &mut |_| {},
        );
        assert_eq!((x.chosen, o.chosen), (12, 16));
    }

    /// No game, no call.
    #[test]
    fn nothing_to_play() {
        let mut one = First::default();
        run_games(&mut [&mut one], 2, &mut starts(0, [0, 0]), &mut |_| {
            panic!("no game")
        });
        assert_eq!(one.chosen, 0);
    }
}
