//! oxo in a web page: every variant's rules, the network's inputs and the search, compiled to
//! WebAssembly and exported to JavaScript through wasm-bindgen.
//!
//! The network itself runs in onnxruntime-web on the exported `model.onnx`, whose `run` is
//! asynchronous, so the search is driven from outside: [`WebGame::search_begin`], then while
//! [`WebGame::search_pending`] is above zero, run the net on [`WebGame::search_inputs`] and
//! hand its three outputs to [`WebGame::search_supply`]; [`WebGame::search_move`] is the
//! move. It is the native search (`oxo_search::BatchedSearch`'s stepwise form), valued and
//! budgeted as the model's `model.json` says (`oxo_play`), so the page plays the model as
//! `oxo play` does.

mod board;
mod session;

use oxo_variants::Variant;
use wasm_bindgen::prelude::*;

pub use board::grid_glyphs;
pub use session::{AnyGame, Session, Shape, new_game};

/// A game of one variant in progress, with the moves so far and the computer player's search.
#[wasm_bindgen]
pub struct WebGame {
    inner: Box<dyn AnyGame>,
}

/// A refusal for JavaScript: an `Error` whose message says what is wrong.
fn refuse(message: String) -> JsError {
    JsError::new(&message)
}

#[wasm_bindgen]
impl WebGame {
    /// A new game of `variant` (tictactoe, ultimate, extreme, paytoplay, xando, adjacency);
    /// an error naming the accepted variants otherwise.
    #[wasm_bindgen(constructor)]
    pub fn new(variant: &str) -> Result<WebGame, JsError> {
        let variant: Variant = variant.parse().map_err(|e| refuse(format!("{e}")))?;
        Ok(WebGame {
            inner: session::new_game(variant),
        })
    }

    /// The variant's name.
    pub fn variant(&self) -> String {
        self.inner.variant().to_string()
    }

    /// Grid width in cells.
    pub fn width(&self) -> usize {
        self.inner.shape().width
    }

    /// Grid height in cells.
    pub fn height(&self) -> usize {
        self.inner.shape().height
    }

    /// Side of the small boards of a nested variant (3 or 4), 0 for a single board.
    pub fn block(&self) -> usize {
        self.inner.shape().block
    }

    /// Input planes of the network: its input is `[batch, planes, height, width]`.
    pub fn planes(&self) -> usize {
        self.inner.shape().planes
    }

    /// The size of the action space: the policy output's width.
    pub fn actions(&self) -> usize {
        self.inner.shape().actions
    }

    /// Every legal move in the rulebook's notation, in action order (none once over).
    pub fn legal_moves(&self) -> Vec<String> {
        self.inner.legal_moves()
    }

    /// Plays `text` (a move in the rulebook's notation); an error with the reason when it
    /// is not legal, and then nothing changes.
    pub fn play(&mut self, text: &str) -> Result<(), JsError> {
        self.inner.play(text).map_err(refuse)
    }

    /// Takes back the last move; false when there is none.
    pub fn undo(&mut self) -> bool {
        self.inner.undo()
    }

    /// `"X"` or `"O"`, the player to act; `undefined` once the game is over.
    pub fn to_move(&self) -> Option<String> {
        self.inner.to_move().map(|p| p.to_string())
    }

    /// `"X"`, `"O"` or `"draw"` once the game is over; `undefined` before.
    pub fn result(&self) -> Option<String> {
        self.inner.result()
    }

    /// Scores or balances `[X, O]` for the variants that keep them; `undefined` otherwise.
    pub fn scores(&self) -> Option<Vec<i32>> {
        self.inner.scores().map(|s| s.to_vec())
    }

    /// The moves played so far, in the rulebook's notation (as `oxo gtp` writes them).
    pub fn moves(&self) -> Vec<String> {
        self.inner.moves().to_vec()
    }

    /// The position as text, as `oxo gtp`'s `showboard` draws it (grid, then notes).
    pub fn board(&self) -> String {
        self.inner.board()
    }

    /// One character per cell in cell order (row by row from the top-left, the cells of
    /// docs/RULES.md): what the text board shows there (`X`, `O`, `.`, `#`, special squares...).
    pub fn glyphs(&self) -> String {
        grid_glyphs(&self.inner.board(), self.width(), self.height())
            .into_iter()
            .collect()
    }

    /// The cell a move is played on (`undefined` for a pass; a blackening names its cell).
    pub fn move_cell(&self, text: &str) -> Option<usize> {
        self.inner.move_cell(text)
    }

    /// Per cell, the winner of the small board holding it (`X`, `O`) or `.` while nobody has
    /// won it (nested variants; all `.` elsewhere), so a page can shade won boards.
    pub fn owners(&self) -> String {
        self.inner.owners()
    }

    /// The network's input for the position, `planes * height * width` floats.
    pub fn encode(&self) -> Vec<f32> {
        self.inner.encode()
    }

    /// The net's judgement of the position from its raw outputs for it (`policy` logits,
    /// `wdl` logits, `score` when the net has a score head), as the JSON line `oxo gtp`'s
    /// `nn_eval` prints: `{"value", "wdl", "policy": {move: probability}, "score"}`.
    pub fn nn_eval(&self, policy: &[f32], wdl: &[f32], score: Option<f32>) -> String {
        self.inner.nn_eval(policy, wdl, score)
    }

    /// Starts the computer's search of the position with the model's `play` settings (the
    /// `play` object of its `model.json`, as JSON text) and the clock `now_ms`
    /// (`performance.now()`); an error for settings that do not parse or a finished game.
    pub fn search_begin(&mut self, play_json: &str, now_ms: f64) -> Result<(), JsError> {
        self.inner.search_begin(play_json, now_ms).map_err(refuse)
    }

    /// Positions waiting for the network; 0 when the search is over.
    pub fn search_pending(&self) -> usize {
        self.inner.search_pending()
    }

    /// The network inputs of the waiting positions: `search_pending() * planes * height *
    /// width` floats, position after position.
    pub fn search_inputs(&self) -> Vec<f32> {
        self.inner.search_inputs()
    }

    /// The network's outputs for the waiting positions (policy logits, win/draw/loss
    /// logits, and score margins, empty for a net without a score head), at clock `now_ms`:
    /// the search backs them up and asks for the next positions, or ends when its budget is
    /// spent. An error when the lengths do not match the waiting positions.
    pub fn search_supply(
        &mut self,
        policy: &[f32],
        wdl: &[f32],
        score: &[f32],
        now_ms: f64,
    ) -> Result<(), JsError> {
        self.inner
            .search_supply(policy, wdl, score, now_ms)
            .map_err(refuse)
    }

    /// The move the finished search chose; `undefined` before it has finished.
    pub fn search_move(&self) -> Option<String> {
        self.inner.search_move()
    }
}
