//! Sackson's X and O (6x6, a round of two games): marks, black squares, the legal claims and
//! blackenings, which game and phase this is, turns left, the scores, and what a symbol on
//! each empty square would add to each player's score (the one-move gains `greedy` plays by).

use crate::xando::{TURNS_PER_PLAYER, XAndO, score_marks};
use oxo_rules::{Game, Player};

use oxo_encode::{Encode, ONES, Planes};

/// Scores are divided by this: a game's run score rarely leaves -50..=50.
const SCORE_SCALE: f32 = 50.0;

/// One symbol's gains are divided by this: it changes a score by -20 (joining runs into a
/// five) to +26 (completing a six).
const GAIN_SCALE: f32 = 25.0;

impl Encode for XAndO {
    const PLANES: usize = 16;

    fn plane_names() -> &'static [&'static str] {
        &[
            "mover: cells holding the mover's symbols",
            "opponent: cells holding the opponent's symbols",
            "black: black squares of the current grid",
            "opening black: the opening black squares (they return in game 2)",
            "legal claim: cells the mover may claim",
            "legal blacken: cells the mover may blacken (actions #A1.., index 36 + cell)",
            "game 2: 1 during the round's second game",
            "opening: 1 while the mover must blacken an opening square",
            "last turn: 1 on the mover's last turn of the game (may blacken instead)",
            "turns left: the mover's claiming turns left in this game / 16",
            "mover score: the mover's run score in the current game / 50",
            "opponent score: the opponent's run score in the current game / 50",
            "game 1 margin: the mover's game-1 score minus the opponent's / 50 (0 in game 1)",
            "mover gain: on each empty square, what the mover's symbol there would add to the mover's score / 25",
            "opponent gain: on each empty square, what the opponent's symbol there would add to the opponent's score / 25",
            ONES,
        ]
    }

    fn encode(&self, out: &mut [f32]) {
        let mut planes = Planes::new::<Self>(out);
        let mover: Player = self.to_move();
        let opponent = mover.other();
        planes.bits(0, self.marks(mover) as u128);
        planes.bits(1, self.marks(opponent) as u128);
        planes.bits(2, self.black() as u128);
        planes.bits(3, self.opening_black() as u128);
        if !self.is_over() {
            let empty = self.empty() as u128;
            let opening = self.in_opening();
            if !opening {
                planes.bits(4, empty);
            }
            if opening || self.on_last_turn() {
                planes.bits(5, empty);
            }
        }
        planes.flag(6, self.game_number() == 2);
        planes.flag(7, self.in_opening());
        planes.flag(8, self.on_last_turn());
        planes.fill(9, self.turns_left(mover) as f32 / TURNS_PER_PLAYER as f32);
        let game = self.game_scores();
        planes.fill(10, game[mover.index()] as f32 / SCORE_SCALE);
        planes.fill(11, game[opponent.index()] as f32 / SCORE_SCALE);
        if let Some(first) = self.first_game_scores() {
            let margin = first[mover.index()] - first[opponent.index()];
            planes.fill(12, margin as f32 / SCORE_SCALE);
        }
        gains(&mut planes, 13, self.marks(mover), self.empty());
        gains(&mut planes, 14, self.marks(opponent), self.empty());
        planes.fill(15, 1.0);
    }
}

/// Writes to `plane`, on every `empty` square, what one more symbol there adds to the score
/// of the symbols `marks`.
fn gains(planes: &mut Planes, plane: usize, marks: u64, empty: u64) {
    let now = score_marks(marks);
    let mut cells = empty;
    while cells != 0 {
        let cell = cells.trailing_zeros() as usize;
        let gain = score_marks(marks | 1 << cell) - now;
        planes.set(plane, cell, gain as f32 / GAIN_SCALE);
        cells &= cells - 1;
    }
}
