//! Self-play game records: what a batch of games, `games/gen-NNNNN/WORKER-SEQ.bin`, holds
//! (bincode 2 through serde).

use std::path::Path;

use oxo_rules::{Action, Game, Outcome, Player};
use serde::{Deserialize, Serialize};

use crate::error::{Result, TrainError, io_error, write_atomic};

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
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
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

    /// The records as bytes: [`MAGIC`], the CRC-32 of the payload (little-endian), then the
    /// payload (bincode).
    pub fn to_bytes(&self) -> Vec<u8> {
        let payload = bincode::serde::encode_to_vec(self, bincode::config::standard())
            .expect("game records serialise");
        let mut bytes = Vec::with_capacity(MAGIC.len() + 4 + payload.len());
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
        bytes.extend_from_slice(&payload);
        bytes
    }

    /// Writes the records to `path` atomically, as [`GenerationRecords::to_bytes`].
    pub fn save(&self, path: &Path) -> Result<()> {
        write_atomic(path, &self.to_bytes())
    }

    /// Reads records written by [`GenerationRecords::save`] for variant `G` and checks them
    /// all: the checksum (files from before it existed, which have none, are refused), the
    /// variant, and that every game replays legally to the end with the recorded result and
    /// scores and one target per move, a probability distribution over legal actions. A bad file is an error naming
    /// it and what is wrong, never trained on. The file and what it decodes to are bounded
    /// by [`MAX_RECORDS_BYTES`]: a few damaged bytes cannot claim gigabytes.
    pub fn load<G: Game>(path: &Path) -> Result<GenerationRecords> {
        let bytes = oxo_nn::read_bounded(path, MAX_RECORDS_BYTES).map_err(|e| io_error(path, e))?;
        Self::from_bytes::<G>(&bytes, &path.display().to_string())
    }

    /// Reads and checks records from `bytes` as [`GenerationRecords::load`] does; `name`
    /// (a file or an object) names them in errors.
    pub fn from_bytes<G: Game>(bytes: &[u8], name: &str) -> Result<GenerationRecords> {
        let corrupt = |what: String| TrainError(format!("{name}: bad game records: {what}"));
        let payload = match bytes.strip_prefix(MAGIC) {
            Some(rest) if rest.len() >= 4 => {
                let (sum, payload) = rest.split_at(4);
                let expected = u32::from_le_bytes(sum.try_into().expect("4 bytes"));
                if crc32fast::hash(payload) != expected {
                    return Err(corrupt("checksum mismatch (the file is damaged)".into()));
                }
                payload
            }
            Some(_) => return Err(corrupt("truncated".into())),
            None => {
                return Err(corrupt(
                    "no oxo-games-1 header: not game records, or records of an oxo from \
                     before their checksum, whose damage cannot be seen, so they are not \
                     trained on; move the file out of the run and play its games again (or \
                     start a new run from its net with `oxo train --init MODEL`)"
                        .into(),
                ));
            }
        };
        let (records, _): (GenerationRecords, usize) = bincode::serde::decode_from_slice(
            payload,
            bincode::config::standard().with_limit::<DECODE_LIMIT>(),
        )
        .map_err(|e| corrupt(e.to_string()))?;
        if records.variant != G::NAME {
            return Err(TrainError(format!(
                "{name}: games of {}, expected {}",
                records.variant,
                G::NAME
            )));
        }
        for (index, game) in records.games.iter().enumerate() {
            game.check::<G>()
                .map_err(|what| corrupt(format!("game {index}: {what}")))?;
        }
        Ok(records)
    }
}

/// The largest game records file oxo reads, and the most memory its decoding may claim: far
/// above a generation's games (64 games of adjacency, the longest variant, take under 1 MB),
/// far below what would exhaust memory.
pub const MAX_RECORDS_BYTES: u64 = 1 << 30;

/// [`MAX_RECORDS_BYTES`] as bincode's decoding limit.
const DECODE_LIMIT: usize = MAX_RECORDS_BYTES as usize;

/// The first bytes of a game records file (since the checksum was added).
const MAGIC: &[u8] = b"oxo-games-1\n";

/// How far from 1 a policy target's probabilities may sum (float rounding of a softmax or
/// of visit shares is about 1e-6).
const POLICY_SUM_TOLERANCE: f32 = 1e-3;

impl GameRecord {
    /// Checks that the game is one the rules allow and that its record agrees with it: every
    /// action legal in turn, the game over exactly after the last one with the recorded
    /// winner and scores, one target per move, each policy over legal actions with finite
    /// probabilities and a finite value. What is wrong, in words.
    pub fn check<G: Game>(&self) -> std::result::Result<(), String> {
        if self.targets.len() != self.actions.len() {
            return Err(format!(
                "{} targets for {} moves",
                self.targets.len(),
                self.actions.len()
            ));
        }
        let mut game = G::new();
        for (ply, (&action, target)) in self.actions.iter().zip(&self.targets).enumerate() {
            if game.is_over() {
                return Err(format!("move {ply} after the end of the game"));
            }
            if (action as usize) >= G::NUM_ACTIONS || !game.is_legal(action) {
                return Err(format!("move {ply} ({action}) is illegal"));
            }
            let legal_policy = target.policy.iter().all(|&(a, p)| {
                (a as usize) < G::NUM_ACTIONS && game.is_legal(a) && (0.0..=1.0).contains(&p)
            });
            if !legal_policy || !target.value.is_finite() {
                return Err(format!(
                    "move {ply}: a target outside the legal moves, or not a probability"
                ));
            }
            let total: f32 = target.policy.iter().map(|&(_, p)| p).sum();
            if !target.policy.is_empty() && (total - 1.0).abs() > POLICY_SUM_TOLERANCE {
                return Err(format!("move {ply}: policy target sums to {total}, not 1"));
            }
            game.play(action);
        }
        if !game.is_over() {
            return Err("the game does not end after its last move".into());
        }
        if self.winner.is_some_and(|w| w > 1) {
            return Err(format!(
                "winner {:?} is neither 0 (X) nor 1 (O)",
                self.winner
            ));
        }
        if game.outcome() != Some(self.outcome()) {
            return Err(format!(
                "recorded result {:?}, the moves give {:?}",
                self.outcome(),
                game.outcome()
            ));
        }
        if game.scores() != self.scores {
            return Err(format!(
                "recorded scores {:?}, the moves give {:?}",
                self.scores,
                game.scores()
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oxo_variants::tictactoe::TicTacToe;

    /// A real tictactoe game: X takes the top row (A1 B1 C1 are 0 1 2) while O plays 3 and 4.
    fn x_wins() -> GameRecord {
        let actions = vec![0, 3, 1, 4, 2];
        let targets = actions
            .iter()
            .map(|&a| MoveTarget {
                full: a == 0,
                policy: if a == 0 {
                    vec![(0, 0.75), (4, 0.25)]
                } else {
                    vec![]
                },
                value: 0.1,
            })
            .collect();
        GameRecord {
            actions,
            targets,
            winner: Some(0),
            scores: None,
        }
    }

    fn records(games: Vec<GameRecord>) -> GenerationRecords {
        GenerationRecords {
            variant: "tictactoe".into(),
            generation: 7,
            model: 5,
            games,
        }
    }

    #[test]
    fn records_round_trip() {
        let records = records(vec![x_wins(), x_wins()]);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gen-00007.bin");
        records.save(&path).unwrap();
        assert_eq!(
            GenerationRecords::load::<TicTacToe>(&path).unwrap(),
            records
        );
        let err = GenerationRecords::load::<oxo_variants::ultimate::Ultimate>(&path).unwrap_err();
        assert!(err.to_string().contains("games of tictactoe"), "{err}");
        assert_eq!(records.positions(), 10);
        assert_eq!(records.full_positions(), 2);
        assert_eq!(records.games[0].replay::<TicTacToe>().0.len(), 5);
        std::fs::write(&path, b"garbage").unwrap();
        let err = GenerationRecords::load::<TicTacToe>(&path).unwrap_err();
        assert!(err.to_string().contains("bad game records"), "{err}");
    }

    /// A flipped byte fails the checksum; the file is named.
    #[test]
    fn a_damaged_file_fails_its_checksum() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gen-00001.bin");
        records(vec![x_wins()]).save(&path).unwrap();
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let err = GenerationRecords::load::<TicTacToe>(&path)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("gen-00001.bin") && err.contains("checksum"),
            "{err}"
        );
    }

    /// Records that decode but tell an impossible game (an out-of-range or illegal move, a
    /// flipped or impossible winner, a game cut short, a target outside the legal moves) are
    /// refused with what is wrong, even with a valid checksum.
    #[test]
    fn impossible_games_are_refused() {
        type Damage = fn(&mut GameRecord);
        let broken: [(&str, Damage); 9] = [
            ("(200) is illegal", |g| g.actions[1] = 200),
            ("(0) is illegal", |g| g.actions[1] = 0),
            ("recorded result", |g| g.winner = Some(1)),
            ("neither 0 (X) nor 1 (O)", |g| g.winner = Some(7)),
            ("does not end", |g| {
                g.actions.pop();
                g.targets.pop();
            }),
            ("targets for", |g| {
                g.targets.pop();
            }),
            ("outside the legal moves", |g| {
                g.targets[1].policy = vec![(0, 1.0)]
            }),
            ("not a probability", |g| g.targets[0].policy[0].1 = 1e30),
            ("sums to 0.75, not 1", |g| g.targets[0].policy[0].1 = 0.5),
        ];
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gen-00002.bin");
        for (expected, damage) in broken {
            let mut game = x_wins();
            damage(&mut game);
            records(vec![x_wins(), game]).save(&path).unwrap();
            let err = GenerationRecords::load::<TicTacToe>(&path)
                .unwrap_err()
                .to_string();
            assert!(
                err.contains("game 1") && err.contains(expected),
                "{expected}: {err}"
            );
        }
    }

    /// Found by fuzzing: 11 bytes of a file without a checksum whose first length claims
    /// 4 GB made the decoder allocate it (out of memory). A claim past the bound is refused.
    #[test]
    fn a_length_claiming_gigabytes_is_refused_not_allocated() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gen-00004.bin");
        let claim = [
            0xfc, 0x29, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x1e, 0x19,
        ];
        let checksummed = [MAGIC, &crc32fast::hash(&claim).to_le_bytes(), &claim].concat();
        std::fs::write(&path, checksummed).unwrap();
        let err = GenerationRecords::load::<TicTacToe>(&path)
            .unwrap_err()
            .to_string();
        // Without the bound the decoder allocates the 4 GB and then fails at the end of the
        // bytes; with it, it stops at the claim.
        assert!(
            err.contains("bad game records") && err.contains("LimitExceeded"),
            "{err}"
        );
    }

    /// A file from before the checksum (bare bincode) is refused, saying how to go on:
    /// values or policies altered in it could not be seen.
    #[test]
    fn files_without_a_checksum_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gen-00003.bin");
        let records = records(vec![x_wins()]);
        let bare = bincode::serde::encode_to_vec(&records, bincode::config::standard()).unwrap();
        std::fs::write(&path, bare).unwrap();
        let err = GenerationRecords::load::<TicTacToe>(&path)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("gen-00003.bin") && err.contains("--init"),
            "{err}"
        );
    }
}
