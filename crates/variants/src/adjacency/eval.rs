//! adjacency: the points made so far plus the points the empty cells still hold, and who is
//! placed to collect them.
//!
//! A placement scores `(1 + own marks touching + 2 × opponent marks touching) × multiplier`.
//! So every mark raises the worth of the empty cells around it: by 1 (times the multiplier)
//! for its owner and by 2 for the opponent. The evaluation, from the view of the player to
//! move, rewards:
//!
//! - **Points**: the difference of the totals made so far.
//! - **Cells next to the opponent** ([`POTENTIAL_SHARE`]): if an empty cell with `m` of the
//!   mover's marks and `o` of the opponent's around it goes to either player at even odds,
//!   it is worth `(o - m) × multiplier / 2` more to the mover than to the opponent. Summed
//!   over the empty cells, this rewards being surrounded by many opponent marks and
//!   penalises marks that feed the opponent (above all next to an empty X3 or X2 square).
//! - **Tempo** ([`TEMPO_SHARE`]): the mover collects the best cell first, so a share of the
//!   best placement now open to the mover counts for them. (Alternating best picks would
//!   leave the first picker about half of the best cell ahead, but the opponent's reply
//!   usually takes back much of it; 0.15 was chosen in matches against 0, 0.25 and 0.5.)
//! - **Extra-turn squares** ([`EXTRA_TURN_SHARE`]): an empty `T` square is a move that costs
//!   no turn, so the mover can take its points and still move: each counts for its points
//!   to the mover. (Crediting a further tempo for each did worse in matches.)
//!
//! The shares were set by head-to-head matches of `greedy`, `alphabeta:depth=2` and
//! `alphabeta:depth=3` between parameter sets; the even-odds share of 0.5 for the cells next
//! to marks was chosen the same way from 0.3 to 1.

use crate::adjacency::{Adjacency, BOARD, DOUBLE, EXTRA_TURN, SIZE, TRIPLE};
use oxo_rules::{Game, Player};

use oxo_agents::Evaluate;

/// The mover's expected share of the difference an empty cell makes (even odds).
const POTENTIAL_SHARE: f32 = 0.5;
/// The share of the mover's best placement that having the move is worth.
const TEMPO_SHARE: f32 = 0.15;
/// The share of an empty extra-turn square's points credited to the mover.
const EXTRA_TURN_SHARE: f32 = 1.0;

/// Every cell except column A / except column K: masks that stop shifts wrapping around rows.
const NOT_COL_A: u128 = {
    let mut mask = BOARD;
    let mut row = 0;
    while row < SIZE {
        mask &= !(1u128 << (row * SIZE));
        row += 1;
    }
    mask
};
const NOT_COL_K: u128 = {
    let mut mask = BOARD;
    let mut row = 0;
    while row < SIZE {
        mask &= !(1u128 << (row * SIZE + SIZE - 1));
        row += 1;
    }
    mask
};

/// The eight copies of `bits`, each moved one step in one direction (row-wrapping and
/// off-board bits dropped): a cell is set in copy `d` when its neighbour in direction `-d`
/// is in `bits`.
#[inline]
fn shifted(bits: u128) -> [u128; 8] {
    let left = (bits >> 1) & NOT_COL_K; // cell c gets c + 1
    let right = (bits << 1) & NOT_COL_A; // cell c gets c - 1
    [
        bits >> SIZE,
        (bits << SIZE) & BOARD,
        left,
        right,
        left >> SIZE,
        (left << SIZE) & BOARD,
        right >> SIZE,
        (right << SIZE) & BOARD,
    ]
}

/// The sum over the cells of `empty` of (how many cells of `bits` touch it) × its multiplier.
#[inline]
fn weighted_contacts(bits: u128, empty: u128) -> i32 {
    shifted(bits)
        .iter()
        .map(|&copy| {
            let hit = copy & empty;
            (hit.count_ones()
                + (hit & (DOUBLE | TRIPLE)).count_ones()
                + (hit & TRIPLE).count_ones()) as i32
        })
        .sum()
}

/// All cells touching a cell of `bits`.
#[inline]
fn dilate(bits: u128) -> u128 {
    shifted(bits).iter().fold(0, |acc, &copy| acc | copy)
}

impl Evaluate for Adjacency {
    fn evaluate(&self) -> f32 {
        let me: Player = self.to_move();
        let them = me.other();
        let (own, other) = (self.marks(me), self.marks(them));
        let empty = self.empty();

        let points = (self.points(me) - self.points(them)) as f32;
        let potential = POTENTIAL_SHARE
            * (weighted_contacts(other, empty) - weighted_contacts(own, empty)) as f32;

        // The best placement for the mover: only cells touching a mark or with a multiplier
        // can beat the 1 point of a lone mark.
        let mut best = 1;
        let mut candidates = empty & (dilate(own | other) | DOUBLE | TRIPLE) & !EXTRA_TURN;
        while candidates != 0 {
            let cell = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            best = best.max(self.placement_points(cell));
        }
        let tempo = TEMPO_SHARE * best as f32;

        let mut extra = 0.0;
        let mut free_turns = empty & EXTRA_TURN;
        while free_turns != 0 {
            let cell = free_turns.trailing_zeros() as usize;
            free_turns &= free_turns - 1;
            extra += EXTRA_TURN_SHARE * self.placement_points(cell) as f32;
        }
        points + potential + tempo + extra
    }
}

#[cfg(test)]
mod tests {
    use crate::adjacency::Adjacency;
    use oxo_rules::{Action, Game, Player};

    use super::{dilate, weighted_contacts};
    use oxo_agents::one_ply_value;
    use oxo_agents::{Agent, AgentSpec, Evaluate, GreedyAgent};

    fn cell(text: &str) -> Action {
        Adjacency::parse_action(text).unwrap()
    }

    /// The position after `moves` from the start.
    fn after(moves: &[&str]) -> Adjacency {
        let mut game = Adjacency::new();
        for text in moves {
            game.try_play(cell(text)).unwrap();
        }
        game
    }

    /// O rings the triple square C3 on three sides while X plays in the far corner.
    const RING: [&str; 8] = ["K11", "B2", "J11", "C2", "K10", "D2", "J10", "B3"];

    #[test]
    fn contacts_respect_the_edges() {
        let a1 = 1u128 << cell("A1");
        let k1 = 1u128 << cell("K1");
        assert_eq!(dilate(a1).count_ones(), 3);
        assert_eq!(dilate(k1).count_ones(), 3);
        assert_eq!(dilate(1u128 << cell("F6")).count_ones(), 8);
        // B2 touches the triple C3 (counts 3) and seven plain cells.
        let empty = Adjacency::new().empty();
        assert_eq!(weighted_contacts(1u128 << cell("B2"), empty), 7 + 3);
    }

    #[test]
    fn greedy_takes_the_ringed_triple() {
        let game = after(&RING);
        assert_eq!(game.to_move(), Player::X);
        assert_eq!(game.placement_points(cell("C3") as usize), (1 + 2 * 4) * 3);
        let mut agent = GreedyAgent::from_spec(&"greedy".parse::<AgentSpec>().unwrap()).unwrap();
        let action = Agent::<Adjacency>::choose(&mut agent, &game);
        assert_eq!(Adjacency::format_action(action), "C3");
    }

    #[test]
    fn the_player_ahead_on_points_is_ahead() {
        let mut moves = RING.to_vec();
        moves.push("C3");
        let game = after(&moves);
        assert_eq!(game.to_move(), Player::O);
        assert!(game.points(Player::X) > game.points(Player::O) + 20);
        assert!(game.evaluate() < 0.0, "{}", game.evaluate());
        moves.push("A11");
        let game = after(&moves);
        assert_eq!(game.to_move(), Player::X);
        assert!(game.evaluate() > 0.0, "{}", game.evaluate());
    }

    #[test]
    fn feeding_an_empty_triple_is_worse_than_a_quiet_move() {
        let game = Adjacency::new();
        assert!(one_ply_value(&game, cell("B2")) < one_ply_value(&game, cell("F6")));
    }

    #[test]
    fn an_extra_turn_square_is_worth_taking() {
        // On the empty board, E3 scores 1 like any lone mark but keeps the move.
        let game = Adjacency::new();
        assert!(one_ply_value(&game, cell("E3")) > one_ply_value(&game, cell("F6")));
    }
}
