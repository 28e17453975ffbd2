#!/usr/bin/env python3
"""How well an exported adjacency model's score output predicts the final margin, by ply.

    usage: scripts/score_probe.py MODEL_DIR GAMES.json [GAMES.json ...]

MODEL_DIR is a directory `oxo export` wrote (model.onnx, model.json with the score output's
`scale`); each GAMES.json an `oxo arena` result whose games list their moves. For positions
at a few plies of every game it prints, from the mover's view:

- the root-mean-square error of the net's predicted final margin (score output x scale)
  against the game's final margin, next to that of the current margin alone (a predictor
  that says the rest of the game is even): a net worth its cost beats it at every ply;
- the slope: how many points of prediction one point already made is worth (the mover's
  points plane raised and lowered by 10 points); 1 is exact, as the points made so far are
  part of the final margin.

It uses scripts/oxo_onnx.py's port of the rules and encoding (numpy and onnxruntime only).
"""

import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oxo_onnx  # noqa: E402

PLIES = (10, 30, 50, 70, 90, 105)
NUDGE = 10.0  # points added to and taken from the mover's points plane for the slope
POINTS_PLANE, POINTS_DIVISOR = 9, 400.0  # adjacency's "mover points / 400" plane


def probe(model: oxo_onnx.Model, scale: float, moves: list[str], final: list[int], ply: int):
    """(slope, predicted margin, current margin, final margin) at `ply` of one game, or None
    when the game ended before it."""
    game = oxo_onnx.replay(oxo_onnx.Adjacency, moves[:ply])
    if game.outcome:
        return None
    me = game.to_move
    planes = game.encode()
    batch = np.stack([planes, planes, planes]).astype(np.float32)
    batch[1, POINTS_PLANE] += NUDGE / POINTS_DIVISOR
    batch[2, POINTS_PLANE] -= NUDGE / POINTS_DIVISOR
    outputs = dict(zip(model.outputs, model.session.run(model.outputs, {model.input_name: batch})))
    score = outputs["score"][:, 0] * scale
    slope = (score[1] - score[2]) / (2 * NUDGE)
    current = game.points[me] - game.points[me ^ 1]
    return slope, score[0], current, final[me] - final[me ^ 1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", help="directory written by `oxo export` (an adjacency model)")
    parser.add_argument("games", nargs="+", help="`oxo arena` result files with moves")
    args = parser.parse_args()
    model = oxo_onnx.Model(args.model)
    if model.cls is not oxo_onnx.Adjacency or "score" not in model.outputs:
        raise SystemExit(f"{args.model}: not an adjacency model with a score output")
    meta = json.load(open(os.path.join(args.model, "model.json")))
    scale = next(o["scale"] for o in meta["outputs"] if o["name"] == "score")
    rows = []
    for path in args.games:
        for game in json.load(open(path))["games"]:
            for ply in PLIES:
                row = probe(model, scale, game["moves"], game["scores"], ply)
                if row is not None:
                    rows.append((ply, *row))
    rows = np.array(rows)
    for ply in PLIES:
        r = rows[rows[:, 0] == ply]
        if len(r) == 0:
            continue
        net = np.sqrt(np.mean((r[:, 2] - r[:, 4]) ** 2))
        current = np.sqrt(np.mean((r[:, 3] - r[:, 4]) ** 2))
        print(f"ply {ply:3d}: {len(r):4d} positions; rmse net {net:5.1f}, current margin "
              f"{current:5.1f}; slope {r[:, 1].mean():.2f} ({r[:, 1].min():.2f} to {r[:, 1].max():.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
