//! Network inputs: each variant's position as a stack of `H x W` feature planes.
//!
//! Every plane covers the variant's whole grid (`Game::HEIGHT x Game::WIDTH`, cell
//! `row * width + col` as in `docs/RULES.md`), so one convolutional trunk serves every variant
//! and a symmetry of the board is a permutation of every plane's cells. Positions are encoded from
//! the point of view of the player to move ("mover" and "opponent" rather than X and O), so the
//! net learns one game, not two. Scalars (balances, scores, flags) become constant planes,
//! scaled to about `[-1, 1]`.
//!
//! Each variant's encoding lives in its folder of `oxo-variants` (`encode.rs`), written with
//! the helpers here ([`Planes`]); [`Encode::plane_names`] describes its planes for humans and
//! for the exported model's `model.json`. [`outputs`] reads the network's answers back into
//! the values a search uses.
//!
//! This crate is the network's input and output contract without any ML framework: the burn
//! crate (`oxo-nn`) and the WebAssembly front end (`oxo-web`) both use it.

pub mod outputs;

pub use outputs::{PositionEval, WDL, expected_value, search_value, softmax, wdl_probabilities};

use oxo_rules::Game;

/// A variant the network can read: its position as `PLANES` planes of `HEIGHT x WIDTH` floats.
///
/// The encoding is a function of the position only (no history), from the mover's point of
/// view, and equivariant under the variant's symmetries: encoding `g.transformed(s)` moves the
/// value of every plane at cell `c` to cell `Game::map_action(s, c)`, which is what lets
/// training augment data with symmetries.
pub trait Encode: Game {
    /// The number of input planes.
    const PLANES: usize;

    /// Floats in one encoded position: `PLANES * HEIGHT * WIDTH`.
    const INPUT_SIZE: usize = Self::PLANES * Self::HEIGHT * Self::WIDTH;

    /// One line per plane, in order, saying what it holds and how it is scaled: shown to
    /// people and written into an exported model's description.
    fn plane_names() -> &'static [&'static str];

    /// Writes the position into `out[..INPUT_SIZE]`, plane-major (plane, row, column), every
    /// float overwritten. Allocates nothing, so search can encode straight into a batch buffer.
    ///
    /// # Panics
    ///
    /// If `out` is shorter than [`Encode::INPUT_SIZE`].
    fn encode(&self, out: &mut [f32]);
}

/// Writes planes into one position's slice of an input buffer. Starts from zeros so encoders
/// only set what is present.
pub struct Planes<'a> {
    out: &'a mut [f32],
    cells: usize,
}

impl<'a> Planes<'a> {
    /// Zeroes `G::INPUT_SIZE` floats of `out` for an encoder of `G`.
    pub fn new<G: Encode>(out: &'a mut [f32]) -> Self {
        let out = &mut out[..G::INPUT_SIZE];
        out.fill(0.0);
        Planes {
            out,
            cells: G::WIDTH * G::HEIGHT,
        }
    }

    /// The floats of plane `plane`.
    pub fn plane(&mut self, plane: usize) -> &mut [f32] {
        &mut self.out[plane * self.cells..(plane + 1) * self.cells]
    }

    /// Sets cell `c` of `plane` to 1 for every set bit `c` of `bits`.
    pub fn bits(&mut self, plane: usize, mut bits: u128) {
        let plane = self.plane(plane);
        while bits != 0 {
            plane[bits.trailing_zeros() as usize] = 1.0;
            bits &= bits - 1;
        }
    }

    /// Sets one cell of `plane`.
    pub fn set(&mut self, plane: usize, cell: usize, value: f32) {
        self.plane(plane)[cell] = value;
    }

    /// Fills the whole of `plane` with `value`: how scalars and flags are fed to a conv net.
    pub fn fill(&mut self, plane: usize, value: f32) {
        self.plane(plane).fill(value);
    }

    /// Fills `plane` with 1 when `flag` holds.
    pub fn flag(&mut self, plane: usize, flag: bool) {
        if flag {
            self.fill(plane, 1.0);
        }
    }
}

/// The rule planes of the nested-board variants (ultimate, extreme), in order after their own
/// planes: where each cell sends the next move (the correspondence rule), and which cells win
/// their board at once.
pub const RULE_PLANES: [&str; 7] = [
    "sends to closed: cells whose board (by the correspondence rule) is closed: a free move",
    "sends to mover won: cells whose board the mover has won",
    "sends to opponent won: cells whose board the opponent has won",
    "sends to mover threat: cells whose board the mover could win in one move",
    "sends to opponent threat: cells whose board the opponent could win in one move",
    "mover wins board: empty cells of open boards where the mover's move wins the board",
    "opponent wins board: empty cells of open boards where the opponent's move would win it",
];

/// A nested-board variant's plane names: its own planes `own`, then [`RULE_PLANES`], then
/// [`ONES`]. `ALL` must be their total (checked when the constant is evaluated).
pub const fn with_rule_planes<const OWN: usize, const ALL: usize>(
    own: [&'static str; OWN],
) -> [&'static str; ALL] {
    assert!(ALL == OWN + RULE_PLANES.len() + 1);
    let mut all = [ONES; ALL];
    let mut i = 0;
    while i < OWN {
        all[i] = own[i];
        i += 1;
    }
    let mut j = 0;
    while j < RULE_PLANES.len() {
        all[OWN + j] = RULE_PLANES[j];
        j += 1;
    }
    all
}

/// The empty cells of a small board that would complete one of `patterns` for the player
/// holding `mine` (patterns with a cell in `theirs` are dead): where that player wins the
/// board in one move: a rule feature of ultimate's encoding, written for any board's patterns.
pub fn winning_cells(patterns: &[u16], mine: u16, theirs: u16) -> u16 {
    patterns
        .iter()
        .filter(|&&pattern| {
            theirs & pattern == 0 && (mine & pattern).count_ones() + 1 == pattern.count_ones()
        })
        .fold(0, |cells, &pattern| cells | (pattern & !mine))
}

/// The last plane of every encoding: all ones. Under the trunk's zero padding it tells the
/// net where the board ends.
pub const ONES: &str = "ones: constant 1 (shows the board edge under zero padding)";
