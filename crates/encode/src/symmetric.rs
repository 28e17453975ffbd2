//! Symmetry averaging: a net evaluated on several symmetric copies of each position, its
//! answers mapped back to the position and averaged.
//!
//! A net trained on randomly transformed positions answers each copy a little differently;
//! the mean of those answers is a less noisy judgement of the position (AlphaGo's
//! evaluation averaged over the 8 symmetries of the board). It costs one network row per
//! copy. Every engine (burn, onnxruntime, a web page's onnxruntime-web) builds its batch
//! and reads its answers back through these functions, so they average alike.

use oxo_rules::Game;

use crate::Encode;

/// Encodes each of `positions` under its variant's first `symmetries` symmetries (0, the
/// identity, first): row `i * symmetries + s` of `inputs` holds `positions[i].transformed(s)`.
///
/// # Panics
///
/// If `symmetries` is 0 or more than `G::NUM_SYMMETRIES`, or `inputs` is shorter than
/// `positions.len() * symmetries * G::INPUT_SIZE`.
pub fn encode_symmetric<G: Encode>(positions: &[G], symmetries: usize, inputs: &mut [f32]) {
    assert!((1..=G::NUM_SYMMETRIES).contains(&symmetries));
    let rows = inputs.chunks_mut(G::INPUT_SIZE);
    let copies = positions
        .iter()
        .flat_map(|position| (0..symmetries).map(move |sym| (position, sym)));
    for ((position, sym), row) in copies.zip(rows) {
        if sym == 0 {
            position.encode(row);
        } else {
            position.transformed(sym).encode(row);
        }
    }
}

/// Folds the policy logits of [`encode_symmetric`]'s rows (`G::NUM_ACTIONS` per row) into
/// one row per position: an action's logit is the mean, over the position's copies, of the
/// logit of that action's image under the copy's symmetry (the geometric mean of the
/// copies' probabilities, once a softmax normalises it).
pub fn fold_symmetric_policy<G: Game>(symmetries: usize, rows: &[f32], policy: &mut [f32]) {
    let actions = G::NUM_ACTIONS;
    let share = 1.0 / symmetries as f32;
    for (position, out) in policy.chunks_mut(actions).enumerate() {
        out.fill(0.0);
        for sym in 0..symmetries {
            let row = &rows[(position * symmetries + sym) * actions..][..actions];
            for (action, logit) in out.iter_mut().enumerate() {
                *logit += share * row[G::map_action(sym, action as u16) as usize];
            }
        }
    }
}

/// Folds one value per row of [`encode_symmetric`] into one per position: their mean.
pub fn fold_symmetric_values(symmetries: usize, rows: &[f32], values: &mut [f32]) {
    for (value, copies) in values.iter_mut().zip(rows.chunks(symmetries)) {
        *value = copies.iter().sum::<f32>() / symmetries as f32;
    }
}

#[cfg(test)]
mod tests {
    use oxo_rules::Game;
    use oxo_rules::adjacency::Adjacency;

    use super::*;

    /// A position some moves into a game, asymmetric enough that every copy differs.
    fn midgame() -> Adjacency {
        let mut game = Adjacency::new();
        for text in ["C3", "D5", "E3", "J10", "B2"] {
            game.try_play(Adjacency::parse_action(text).unwrap())
                .unwrap();
        }
        game
    }

    /// Row `i * k + s` is copy `s` of position `i`, encoded as that transformed position
    /// encodes on its own.
    #[test]
    fn rows_hold_each_position_under_each_symmetry() {
        let positions = [Adjacency::new(), midgame()];
        let k = Adjacency::NUM_SYMMETRIES;
        let size = Adjacency::INPUT_SIZE;
        let mut inputs = vec![f32::NAN; positions.len() * k * size];
        encode_symmetric(&positions, k, &mut inputs);
        let mut row = vec![0.0; size];
        for (i, position) in positions.iter().enumerate() {
            for sym in 0..k {
                position.transformed(sym).encode(&mut row);
                assert_eq!(&inputs[(i * k + sym) * size..][..size], &row[..]);
            }
        }
    }

    /// A net that answers every copy consistently (its logit for a copy's action is a
    /// function of the original action it stands for) keeps its policy under folding; one
    /// that answers each copy with a different offset gets their mean.
    #[test]
    fn folding_maps_each_copy_back_and_averages() {
        let k = Adjacency::NUM_SYMMETRIES;
        let actions = Adjacency::NUM_ACTIONS;
        let logit_of = |action: usize| (action * 7 % 13) as f32;
        let mut rows = vec![0.0; 2 * k * actions];
        for position in 0..2 {
            for sym in 0..k {
                let row = &mut rows[(position * k + sym) * actions..][..actions];
                for action in 0..actions {
                    let image = Adjacency::map_action(sym, action as u16) as usize;
                    row[image] = logit_of(action) + sym as f32 + position as f32;
                }
            }
        }
        let mut policy = vec![f32::NAN; 2 * actions];
        fold_symmetric_policy::<Adjacency>(k, &rows, &mut policy);
        let mean_offset = (0..k).sum::<usize>() as f32 / k as f32;
        for position in 0..2 {
            for action in 0..actions {
                let expected = logit_of(action) + mean_offset + position as f32;
                let got = policy[position * actions + action];
                assert!(
                    (got - expected).abs() < 1e-5,
                    "{action}: {got} vs {expected}"
                );
            }
        }
        let mut values = [f32::NAN; 2];
        let value_rows: Vec<f32> = (0..2 * k).map(|row| row as f32).collect();
        fold_symmetric_values(k, &value_rows, &mut values);
        let first = (0..k).sum::<usize>() as f32 / k as f32;
        assert_eq!(values, [first, first + k as f32]);
    }

    /// One symmetry is the identity: rows and folds change nothing.
    #[test]
    fn one_symmetry_is_the_plain_evaluation() {
        let position = midgame();
        let mut inputs = vec![0.0; Adjacency::INPUT_SIZE];
        encode_symmetric(&[position], 1, &mut inputs);
        let mut plain = vec![0.0; Adjacency::INPUT_SIZE];
        position.encode(&mut plain);
        assert_eq!(inputs, plain);
        let rows: Vec<f32> = (0..Adjacency::NUM_ACTIONS).map(|a| a as f32).collect();
        let mut policy = vec![0.0; Adjacency::NUM_ACTIONS];
        fold_symmetric_policy::<Adjacency>(1, &rows, &mut policy);
        assert_eq!(policy, rows);
    }
}
