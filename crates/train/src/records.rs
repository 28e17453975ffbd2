//! Self-play game records: what `selfplay/gen-NNNNN.bin` holds (bincode 2 through serde).

use std::path::Path;

use oxo_rules::{Action, Game, Outcome, Player};
use serde::{Deserialize, Serialize};

use crate::rundir::{Result, TrainError, io_error, write_atomic};

/// The search's verdict on one move of a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveTarget {
    /// Whether the move got a full search: only those are policy targets.
    pub full: bool,
    /// The search's improved policy over the legal actions, `(action, probability)`.
    pub policy: Vec<(Action, f32)>,
    /// The search's root value, from the mover's view.
    pub value: f32,
}

/// One self-play game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Every action from the start position.
    pub actions: Vec<Action>,
    /// One target per action.
    pub targets: Vec<MoveTarget>,
    /// The winner: 0 for X, 1 for O, `None` for a draw.
    pub winner: Option<u8>,
    /// Final scores `[X, O]` for scoring variants.
    pub scores: Option<[i32; 2]>,
}

impl GameRecord {
    /// The outcome as the rules say it.
    pub fn outcome(&self) -> Outcome {
        match self.winner {
            Some(p) => Outcome::Win(Player::from_index(p as usize)),
            None => Outcome::Draw,
        }
    }

    /// Replays the game from the start: the positions before each action, and the position
    /// after the last one, where the game ended (what the ownership target is read from).
    pub fn replay<G: Game>(&self) -> (Vec<G>, G) {
        let mut game = G::new();
        let mut before = Vec::with_capacity(self.actions.len());
        for &action in &self.actions {
            before.push(game);
            game.play(action);
        }
        (before, game)
    }
}

/// One generation's self-play games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GenerationRecords {
    /// The variant.
    pub variant: String,
    /// The generation they were played in.
    pub generation: u64,
    /// The generation of the model that played them (in a bootstrap generation, of the best
    /// model at the time, which took no part: plain MCTS played them).
    pub model: u64,
    /// The games.
    pub games: Vec<GameRecord>,
}

impl GenerationRecords {
    /// Positions (moves) in all games.
    pub fn positions(&self) -> usize {
        self.games.iter().map(|g| g.actions.len()).sum()
    }

    /// Positions with a full search.
    pub fn full_positions(&self) -> usize {
        self.games
            .iter()
            .map(|g| g.targets.iter().filter(|t| t.full).count())
            .sum()
    }

    /// Writes the records to `path` atomically.
    pub fn save(&self, path: &Path) -> Result<()> {
        let bytes = bincode::serde::encode_to_vec(self, bincode::config::standard())
            .map_err(|e| io_error(path, e))?;
        write_atomic(path, &bytes)
    }

    /// Reads records written by [`GenerationRecords::save`], checking the variant.
    pub fn load(path: &Path, variant: &str) -> Result<GenerationRecords> {
        let bytes = std::fs::read(path).map_err(|e| io_error(path, e))?;
        let (records, _): (GenerationRecords, usize) =
            bincode::serde::decode_from_slice(&bytes, bincode::config::standard())
                .map_err(|e| io_error(path, format!("corrupt game records: {e}")))?;
        if records.variant != variant {
            return Err(TrainError(format!(
                "{}: games of {}, expected {variant}",
                path.display(),
                records.variant
            )));
        }
        Ok(records)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oxo_rules::tictactoe::TicTacToe;

    #[test]
    fn records_round_trip() {
        let game = GameRecord {
            actions: vec![4, 0, 8],
            targets: vec![
                MoveTarget {
                    full: true,
                    policy: vec![(4, 0.75), (0, 0.25)],
                    value: 0.1,
                },
                MoveTarget {
                    full: false,
                    policy: vec![],
                    value: -0.5,
                },
                MoveTarget {
                    full: false,
                    policy: vec![],
                    value: 0.5,
                },
            ],
            winner: Some(1),
            scores: Some([3, -2]),
        };
        let records = GenerationRecords {
            variant: "tictactoe".into(),
            generation: 7,
            model: 5,
            games: vec![game.clone(), game],
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gen-00007.bin");
        records.save(&path).unwrap();
        assert_eq!(
            GenerationRecords::load(&path, "tictactoe").unwrap(),
            records
        );
        assert!(GenerationRecords::load(&path, "ultimate").is_err());
        assert_eq!(records.positions(), 6);
        assert_eq!(records.full_positions(), 2);
        assert_eq!(records.games[0].replay::<TicTacToe>().0.len(), 3);
        std::fs::write(&path, b"garbage").unwrap();
        let err = GenerationRecords::load(&path, "tictactoe").unwrap_err();
        assert!(err.to_string().contains("corrupt"), "{err}");
    }
}
