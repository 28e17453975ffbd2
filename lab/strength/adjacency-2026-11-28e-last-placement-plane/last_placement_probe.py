#!/usr/bin/env python3
"""The score head's bias by who makes the last placement: final margin minus predicted margin,
by ply range and parity of the empty cells, with and without T squares left.

    usage: last_placement_probe.py MODEL_DIR GAMES.json [GAMES.json ...]
"""
import json, os, sys
import numpy as np
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../scripts"))
import oxo_onnx
model = oxo_onnx.Model(sys.argv[1])
meta = json.load(open(os.path.join(sys.argv[1], "model.json")))
scale = next(o["scale"] for o in meta["outputs"] if o["name"] == "score")
rows = []
for path in sys.argv[2:]:
    for g in json.load(open(path))["games"]:
        for ply in range(40, 117, 3):
            game = oxo_onnx.replay(oxo_onnx.Adjacency, g["moves"][:ply])
            if game.outcome: continue
            me = game.to_move
            empty = game.empty()
            t_left = sum(1 for c in empty if c in oxo_onnx.ADJ_EXTRA_TURN)
            p = game.encode().astype(np.float32)[None]
            out = dict(zip(model.outputs, model.session.run(model.outputs, {model.input_name: p})))
            s = out["score"][0, 0] * scale
            final = g["scores"][me] - g["scores"][me ^ 1]
            rows.append((ply, len(empty) % 2, t_left, s, final, me))
r = np.array(rows)
for lo, hi in [(40, 70), (70, 100), (100, 117)]:
    for par in (0, 1):
        q = r[(r[:, 0] >= lo) & (r[:, 0] < hi) & (r[:, 1] == par) & (r[:, 2] == 0)]
        if len(q): print(f"ply {lo}-{hi} empties%2={par} noT: n={len(q)} mean(final-pred)={np.mean(q[:,4]-q[:,3]):+.2f} rmse={np.sqrt(np.mean((q[:,4]-q[:,3])**2)):.2f}")
    for par in (0, 1):
        q = r[(r[:, 0] >= lo) & (r[:, 0] < hi) & (r[:, 1] == par) & (r[:, 2] > 0)]
        if len(q): print(f"ply {lo}-{hi} empties%2={par} T left: n={len(q)} mean(final-pred)={np.mean(q[:,4]-q[:,3]):+.2f}")
