//! The [`Game`] trait every variant implements, and the small types it speaks in.

use std::fmt;

use rand_core::Rng;

use crate::Action;
use crate::coords;

/// The largest action space of any variant (extreme's 16x16 grid). [`ActionList`] holds this
/// many actions, so legal-move generation never allocates.
pub const MAX_ACTIONS: usize = 256;

/// A fixed-capacity list of actions that lives on the stack.
pub type ActionList = arrayvec::ArrayVec<Action, MAX_ACTIONS>;

/// One of the two players. `X` (player 0) moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// Player 0, the first mover, drawn as `X`.
    X = 0,
    /// Player 1, the second mover, drawn as `O`.
    O = 1,
}

impl Player {
    /// Both players, in index order.
    pub const BOTH: [Player; 2] = [Player::X, Player::O];

    /// The opponent.
    #[inline]
    pub fn other(self) -> Player {
        match self {
            Player::X => Player::O,
            Player::O => Player::X,
        }
    }

    /// 0 for `X`, 1 for `O`: the index into per-player arrays such as scores.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The player with this index (0 or 1).
    #[inline]
    pub fn from_index(index: usize) -> Player {
        if index == 0 { Player::X } else { Player::O }
    }

    /// The mark this player draws: `'X'` or `'O'`.
    pub fn symbol(self) -> char {
        match self {
            Player::X => 'X',
            Player::O => 'O',
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.symbol())
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This player won.
    Win(Player),
    /// Neither player won.
    Draw,
}

impl Outcome {
    /// The outcome from `player`'s point of view: +1 win, 0 draw, -1 loss. This is the value
    /// that search backs up and training regresses.
    pub fn value_for(self, player: Player) -> f32 {
        match self {
            Outcome::Win(winner) if winner == player => 1.0,
            Outcome::Win(_) => -1.0,
            Outcome::Draw => 0.0,
        }
    }

    /// The outcome from `player`'s point of view with a draw worth what `draw` says: as
    /// [`Outcome::value_for`], but a draw is [`DrawValue::for_player`].
    pub fn value_with_draw(self, player: Player, draw: DrawValue) -> f32 {
        match self {
            Outcome::Draw => draw.for_player(player),
            won => won.value_for(player),
        }
    }

    /// The outcome of a game decided by comparing two totals (higher wins, equal draws).
    pub fn from_scores(scores: [i32; 2]) -> Outcome {
        match scores[0].cmp(&scores[1]) {
            std::cmp::Ordering::Greater => Outcome::Win(Player::X),
            std::cmp::Ordering::Less => Outcome::Win(Player::O),
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }
}

/// What a draw is worth to each player: `value` to `side` and `-value` to the other, so the
/// game stays zero-sum and a search can back values up as usual. A player who expects to
/// outplay its opponent values a draw below 0 and keeps playing for a win where a draw was
/// on offer (chess engines call it contempt); [`DrawValue::NEUTRAL`] is the draw's plain 0,
/// which self-play and training use.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawValue {
    /// The player whose view `value` is.
    pub side: Player,
    /// A draw's value to `side`, in `[-1, 1]` (a loss is -1, a win +1).
    pub value: f32,
}

impl DrawValue {
    /// A draw worth 0 to both players.
    pub const NEUTRAL: DrawValue = DrawValue {
        side: Player::X,
        value: 0.0,
    };

    /// A draw's value to `player`.
    pub fn for_player(self, player: Player) -> f32 {
        if player == self.side {
            self.value
        } else {
            -self.value
        }
    }
}

/// Why a move cannot be played in the current position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The game is already over.
    #[error("the game is over")]
    GameOver,
    /// The index is outside the variant's action space.
    #[error("no such move in this variant")]
    OutOfRange,
    /// The cell already holds a mark (or is black, or a free space).
    #[error("the square is occupied")]
    Occupied,
    /// The move is not on the board the player was sent to.
    #[error("wrong board: play on the board you were sent to")]
    WrongBoard,
    /// The cell is on a board that is already closed.
    #[error("that board is closed")]
    ClosedBoard,
    /// The mover's balance is not positive, so they must pass.
    #[error("not enough balance: a balance of 0 or less must pass")]
    NotEnoughBalance,
    /// The move's kind is not allowed now; the text says which kind is expected.
    #[error("{0}")]
    NotNow(&'static str),
}

/// Why a piece of text is not a move in a variant's notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{text}' is not a move: expected {expected}")]
pub struct ParseMoveError {
    /// The text that failed to parse.
    pub text: String,
    /// What the variant's notation expects, e.g. "a cell A1..I9".
    pub expected: String,
}

/// The rules of one variant, as a small copyable position.
///
/// Search and training are generic over this trait. A position knows whose turn it is (the
/// same player may move twice in a row: bonus moves, extra turns), its legal actions, and how
/// it ends. Positions are plain values: "undo" is keeping the previous copy.
pub trait Game:
    Copy + Clone + Eq + std::hash::Hash + fmt::Debug + fmt::Display + Send + Sync + 'static
{
    /// The variant's name as used on the command line (`"ultimate"`, ...).
    const NAME: &'static str;
    /// Grid width in cells.
    const WIDTH: usize;
    /// Grid height in cells.
    const HEIGHT: usize;
    /// Size of the action space: policy vectors have this length.
    const NUM_ACTIONS: usize;
    /// An upper bound on the number of actions in one game (a round, for xando).
    const MAX_PLIES: usize;
    /// Number of symmetries; symmetry 0 is the identity.
    const NUM_SYMMETRIES: usize;
    /// Whether the variant keeps scores or balances ([`Game::scores`] returns `Some`).
    const HAS_SCORES: bool;
    /// Side of the small boards of a nested variant (3 for ultimate, 4 for extreme), 0 for a
    /// single board: how the grid is drawn and where separators fall.
    const BLOCK: usize = 0;
    /// Whether [`Game::owner`] says something: true for the nested variants (ultimate,
    /// extreme), whose small boards are won one at a time.
    const HAS_OWNERSHIP: bool = false;

    /// The starting position.
    fn new() -> Self;

    /// The player to act. Meaningless once the game is over.
    fn to_move(&self) -> Player;

    /// Clears `out` and writes every legal action into it, in increasing index order. Empty
    /// exactly when the game is over.
    fn legal_actions(&self, out: &mut ActionList);

    /// Checks a move, saying why it is illegal.
    fn check(&self, action: Action) -> Result<(), IllegalMove>;

    /// Plays a legal action. Playing an illegal one is a logic error: it may panic (in debug
    /// builds) or leave a meaningless position, so check untrusted moves with [`Game::check`]
    /// or use [`Game::try_play`].
    fn play(&mut self, action: Action);

    /// The outcome, once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// Scores or balances `[X, O]` as a front end shows them during play (see `docs/RULES.md`), or
    /// `None` for variants without scores.
    fn scores(&self) -> Option<[i32; 2]> {
        None
    }

    /// Whether the finished game was won outright, by an event its scores do not count
    /// (extreme's big-board pattern, paytoplay's line), rather than on the scores. False for
    /// unfinished games, draws, wins on the scores, and variants without scores. Training
    /// uses it to give such a win the largest score margin (`train.outright_win_score`).
    fn won_outright(&self) -> bool {
        false
    }

    /// Where `action` goes under symmetry `sym` (`0..NUM_SYMMETRIES`).
    fn map_action(sym: usize, action: Action) -> Action;

    /// The position transformed by symmetry `sym`: its legal actions are exactly the mapped
    /// legal actions of `self`, and it has the same player to move, outcome and scores.
    fn transformed(&self, sym: usize) -> Self;

    /// Writes an action in `docs/RULES.md` notation (`C5`, `pass`, `#C3`).
    fn format_action(action: Action) -> String {
        coords::format_cell(action as usize, Self::WIDTH)
    }

    /// The grid cell an action marks, if any (front ends highlight the last move's cell).
    /// Variants whose extra actions touch a cell (xando's blackening) override this.
    fn action_cell(action: Action) -> Option<usize> {
        ((action as usize) < Self::WIDTH * Self::HEIGHT).then_some(action as usize)
    }

    /// Reads an action in `docs/RULES.md` notation, case-insensitively.
    fn parse_action(text: &str) -> Result<Action, ParseMoveError> {
        coords::parse_cell(text, Self::WIDTH, Self::HEIGHT).map(|cell| cell as Action)
    }

    /// Whether the game is over.
    #[inline]
    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// Whether `action` is legal here.
    #[inline]
    fn is_legal(&self, action: Action) -> bool {
        self.check(action).is_ok()
    }

    /// Plays `action` if it is legal; otherwise leaves the position unchanged and says why.
    fn try_play(&mut self, action: Action) -> Result<(), IllegalMove> {
        self.check(action)?;
        self.play(action);
        Ok(())
    }

    /// A legal move that wins something at once, for [`PlayoutPolicy::Tactical`] playouts:
    /// in tictactoe one that completes a line; in ultimate and extreme one that wins a small
    /// board (which may win the game), the first found scanning the playable boards and then
    /// their cells in index order. `None` when there is none, and in the scoring variants,
    /// which define no such move (their tactical playouts are uniform).
    fn winning_action(&self) -> Option<Action> {
        None
    }

    /// Who owns grid cell `cell` (`row * WIDTH + col`): in the nested variants, the winner of
    /// the small board holding it; `None` while nobody has won that board, and everywhere in
    /// variants without small boards ([`Game::HAS_OWNERSHIP`] is false). Read from a game's
    /// final position, it is the target of the trainer's ownership head (KataGo's auxiliary
    /// target): one label per cell, where the game's result gives one per game.
    fn owner(&self, cell: usize) -> Option<Player> {
        let _ = cell;
        None
    }

    /// A uniformly random legal action. Panics if the game is over. Variants override this
    /// with a bitboard pick for fast random playouts.
    fn random_action<R: Rng + ?Sized>(&self, rng: &mut R) -> Action {
        let mut legal = ActionList::new();
        self.legal_actions(&mut legal);
        assert!(!legal.is_empty(), "random_action called on a finished game");
        legal[random_below(rng, legal.len() as u32) as usize]
    }
}

/// Appends `offset + i` to `out` for every set bit `i` of `mask`, in increasing order: how the
/// bitboard variants turn a legal-move mask into their action list.
#[inline]
pub fn push_set_bits(out: &mut ActionList, mask: u128, offset: Action) {
    let mut rest = mask;
    while rest != 0 {
        out.push(offset + rest.trailing_zeros() as Action);
        rest &= rest - 1;
    }
}

/// The lowest cell `i` of the mask `empty` for which `wins(mine | 1 << i)`: the first empty
/// cell of a small board that completes one of the mover's patterns there.
#[inline]
pub fn first_completing(mine: u16, empty: u16, wins: impl Fn(u16) -> bool) -> Option<usize> {
    let mut rest = empty;
    while rest != 0 {
        let cell = rest.trailing_zeros() as usize;
        if wins(mine | 1 << cell) {
            return Some(cell);
        }
        rest &= rest - 1;
    }
    None
}

/// A uniform integer in `0..n` from one 32-bit draw (Lemire's multiply-shift). Its bias is
/// below `n / 2^32`, under 10^-7 for every action space here: invisible to playouts and search.
#[inline]
pub fn random_below<R: Rng + ?Sized>(rng: &mut R, n: u32) -> u32 {
    ((rng.next_u32() as u64 * n as u64) >> 32) as u32
}

/// How a playout picks its moves. With the `serde` feature it reads and writes as its
/// [`PlayoutPolicy::name`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
pub enum PlayoutPolicy {
    /// Uniformly random legal moves: the classic Monte-Carlo playout.
    #[default]
    Uniform,
    /// [`Game::winning_action`] when there is one, else a uniformly random move. It models
    /// an opponent that grabs every board it can (`playout=tactical` in agent specs,
    /// `selfplay.rollout_policy = "tactical"` in configs; tried in docs/experiments.md,
    /// section 'extreme').
    Tactical,
}

impl PlayoutPolicy {
    /// The policy's name in configs and agent specs: `uniform` or `tactical`.
    pub fn name(self) -> &'static str {
        match self {
            PlayoutPolicy::Uniform => "uniform",
            PlayoutPolicy::Tactical => "tactical",
        }
    }

    /// The next move of a playout from `game` (not over).
    #[inline]
    pub fn action<G: Game, R: Rng + ?Sized>(self, game: &G, rng: &mut R) -> Action {
        match self {
            PlayoutPolicy::Uniform => game.random_action(rng),
            PlayoutPolicy::Tactical => game
                .winning_action()
                .unwrap_or_else(|| game.random_action(rng)),
        }
    }
}

impl std::str::FromStr for PlayoutPolicy {
    type Err = String;

    /// Reads a policy's name (see [`PlayoutPolicy::name`]), saying what is accepted if it is
    /// none.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        [PlayoutPolicy::Uniform, PlayoutPolicy::Tactical]
            .into_iter()
            .find(|policy| policy.name() == text)
            .ok_or_else(|| format!("unknown playout policy '{text}': use uniform or tactical"))
    }
}

/// Plays `policy`'s moves until the game ends; returns the final position and the number of
/// moves played.
pub fn playout<G: Game, R: Rng + ?Sized>(
    mut game: G,
    policy: PlayoutPolicy,
    rng: &mut R,
) -> (G, usize) {
    let mut plies = 0;
    while !game.is_over() {
        let action = policy.action(&game, rng);
        game.play(action);
        plies += 1;
    }
    (game, plies)
}

/// Plays uniformly random moves until the game ends; returns the final position and the
/// number of moves played. This is the random playout that `oxo bench rules` measures.
pub fn random_playout<G: Game, R: Rng + ?Sized>(game: G, rng: &mut R) -> (G, usize) {
    playout(game, PlayoutPolicy::Uniform, rng)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A draw is worth `value` to its side and `-value` to the other, so the two views still
    /// sum to 0; wins and losses keep their ±1, and the neutral draw is 0 to both.
    #[test]
    fn a_draw_value_is_zero_sum_and_leaves_wins_alone() {
        let contempt = DrawValue {
            side: Player::O,
            value: -0.25,
        };
        assert_eq!(Outcome::Draw.value_with_draw(Player::O, contempt), -0.25);
        assert_eq!(Outcome::Draw.value_with_draw(Player::X, contempt), 0.25);
        for player in [Player::X, Player::O] {
            assert_eq!(
                Outcome::Draw.value_with_draw(player, DrawValue::NEUTRAL),
                0.0
            );
            for winner in [Player::X, Player::O] {
                let won = Outcome::Win(winner);
                assert_eq!(won.value_with_draw(player, contempt), won.value_for(player));
            }
        }
    }
}
