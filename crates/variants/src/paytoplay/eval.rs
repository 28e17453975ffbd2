//! paytoplay: tic-tac-toe lines, but every mark costs money and the money decides the games
//! that end without a line.
//!
//! The evaluation, from the view of the player to move ("the mover"), rewards:
//!
//! - **A win on the table.** The mover can afford a mark (funds after this turn's income are
//!   positive: any positive balance buys any square) and owns two cells of a line whose third
//!   cell is empty: three in a row this very turn. Likewise when the opponent has just passed
//!   voluntarily and the mover's funds beat the opponent's balance: a voluntary pass now ends
//!   the game on balances, in the mover's favour. Both are worth [`SURE_WIN`].
//! - **A loss that cannot be stopped**, the mirror image: the opponent will be able to pay
//!   next turn (their balance plus the income of 2 is positive) and has a line to complete
//!   that the mover cannot block, because the mover must pass or because there are two such
//!   lines. Worth `-SURE_LOSS`.
//! - **Open lines**, as in tictactoe: a line free of the opponent's marks is worth
//!   [`LINE_POINTS`] by how many of the player's marks it holds. (A threat its owner cannot
//!   pay for next turn is not discounted: the money comes back at 2 a turn, and checked
//!   against the solver, discounting it chose worse moves.)
//! - **Balance**: the difference of balances, [`BALANCE_POINTS`] per unit of money, because
//!   the balance decides every game that ends without a line (full board or two voluntary
//!   passes), and money buys the tempo to place the next mark. This is where a square's cost
//!   counts: one-ply search weighs the centre's 4 lines against its price of 4 (8 points of
//!   balance) and an edge's 2 lines against its price of 2.
//! - **Tempo**: an opponent who must pass next turn (balance of -2 or less) hands the mover a
//!   second move in a row, worth [`SKIP_POINTS`]; a mover who must pass now is worth as much
//!   to the opponent.
//!
//! The solver plays paytoplay perfectly ([`Evaluate::SOLVABLE`]); this evaluation is what
//! `greedy` and depth-limited `alphabeta` see, and what the solver uses to choose among
//! equally good moves. The weights were chosen by how often one-ply search on it picks an
//! optimal move, checked against the solver over every reachable position where some move is
//! worse than the best.

use crate::paytoplay::{INCOME, PayToPlay};
use crate::tictactoe::{FULL, LINES};
use oxo_rules::{Game, Player};

use oxo_agents::Evaluate;

/// A position the mover wins on this turn whatever the opponent does.
const SURE_WIN: f32 = 5000.0;
/// A position the mover loses next turn whatever they do.
const SURE_LOSS: f32 = 4000.0;
/// Points for a line free of the opponent's marks holding 0, 1 or 2 of a player's marks.
const LINE_POINTS: [f32; 3] = [0.0, 1.0, 5.0];
/// Points per unit of balance difference.
const BALANCE_POINTS: f32 = 2.0;
/// Points for the opponent having to pass on their next turn (the mover moves twice).
const SKIP_POINTS: f32 = 6.0;

/// The empty cells that would complete a line of `own` (two marks, third cell empty).
fn threats(own: u16, other: u16) -> u16 {
    let empty = !(own | other) & FULL;
    LINES
        .iter()
        .filter(|&&line| line & other == 0 && (line & own).count_ones() == 2)
        .fold(0, |acc, &line| acc | (line & empty))
}

/// Open-line points of `own` against `other`.
fn line_score(own: u16, other: u16) -> f32 {
    LINES
        .iter()
        .filter(|&&line| line & other == 0)
        .map(|&line| LINE_POINTS[((line & own).count_ones() as usize).min(2)])
        .sum()
}

impl Evaluate for PayToPlay {
    const SOLVABLE: bool = true;

    fn evaluate(&self) -> f32 {
        let me: Player = self.to_move();
        let them = me.other();
        let (own, other) = (self.marks(me), self.marks(them));
        let funds = self.funds();
        // The opponent's funds at their next turn: balance plus income (our move spends
        // only our own money).
        let their_funds = self.balance(them) + INCOME;

        let my_threats = threats(own, other);
        if funds > 0 && my_threats != 0 {
            return SURE_WIN;
        }
        if self.after_voluntary_pass() && funds > 0 && funds > self.balance(them) {
            return SURE_WIN; // pass now: the game ends on balances, which we lead
        }
        let their_threats = threats(other, own);
        if their_funds > 0 && their_threats != 0 && (funds <= 0 || their_threats.count_ones() >= 2)
        {
            return -SURE_LOSS;
        }

        let lines = line_score(own, other) - line_score(other, own);
        let balance = (self.balance(me) - self.balance(them)) as f32 * BALANCE_POINTS;
        let tempo = if their_funds <= 0 { SKIP_POINTS } else { 0.0 }
            - if funds <= 0 { SKIP_POINTS } else { 0.0 };
        lines + balance + tempo
    }
}

#[cfg(test)]
mod tests {
    use crate::paytoplay::{PASS, PayToPlay};
    use oxo_rules::{Game, Player};

    use super::{SURE_LOSS, SURE_WIN};
    use oxo_agents::{Agent, AgentSpec, Evaluate, GreedyAgent};

    /// The position after `moves` (cells like `B2`, or `pass`) from the start.
    fn after(moves: &[&str]) -> PayToPlay {
        let mut game = PayToPlay::new();
        for text in moves {
            let action = PayToPlay::parse_action(text).unwrap();
            game.try_play(action).unwrap();
        }
        game
    }

    fn greedy_move(game: &PayToPlay) -> String {
        let mut agent = GreedyAgent::from_spec(&"greedy".parse::<AgentSpec>().unwrap()).unwrap();
        PayToPlay::format_action(Agent::<PayToPlay>::choose(&mut agent, game))
    }

    #[test]
    fn poorer_mover_on_a_mirrored_board_is_behind() {
        // X paid 2 of its 1 for B1, O 2 of its 2 for B3: same shape, X is 1 poorer.
        let game = after(&["B1", "B3"]);
        assert_eq!(game.to_move(), Player::X);
        assert_eq!((game.balance(Player::X), game.balance(Player::O)), (-1, 0));
        assert!(game.evaluate() < 0.0, "{}", game.evaluate());
    }

    #[test]
    fn payable_threat_is_a_win_and_greedy_takes_it() {
        // X holds B1 and B3 with B2 empty; O passed instead of blocking; X has funds 1.
        let game = after(&["B1", "A1", "B3", "pass"]);
        assert_eq!(game.to_move(), Player::X);
        assert!(game.funds() > 0);
        assert_eq!(game.evaluate(), SURE_WIN);
        assert_eq!(greedy_move(&game), "B2");
    }

    #[test]
    fn greedy_blocks_the_threat() {
        let game = after(&["B1", "A1", "B3"]);
        assert_eq!(game.to_move(), Player::O);
        assert_eq!(greedy_move(&game), "B2");
    }

    #[test]
    fn unstoppable_threat_is_a_loss() {
        // O to move must pass (funds 0) while X, who can pay next turn, threatens B2.
        let game = after(&["B1", "A1", "B3", "C3", "pass"]);
        assert_eq!(game.to_move(), Player::O);
        assert!(game.must_pass());
        assert_eq!(game.evaluate(), -SURE_LOSS);
    }

    #[test]
    fn ending_the_game_by_passing_while_richer_is_a_win() {
        // O passed voluntarily with balance 1; X's funds are 2: a pass now wins on balances.
        let game = after(&["A1", "C3", "pass", "pass"]);
        assert_eq!(game.to_move(), Player::X);
        assert!(game.after_voluntary_pass());
        assert_eq!(game.evaluate(), SURE_WIN);
        assert_eq!(greedy_move(&game), PayToPlay::format_action(PASS));
    }
}
