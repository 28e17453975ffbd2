#!/usr/bin/env python3
"""How far adjacency nets disagree: policy KL, top move agreement and score RMS difference,
pair by pair, on 1,500 positions of the first net's own play (drawn from its policy).

    python3 diversity.py DIR DIR [DIR ...]   # each DIR holds model.onnx and model.json

Run from the repository root (it uses scripts/oxo_onnx.py and scripts/quantize_int8.py).
"""
import sys

import numpy as np
import onnxruntime as ort

sys.path.insert(0, 'scripts')
import oxo_onnx  # noqa: E402
from quantize_int8 import self_play_positions  # noqa: E402

dirs = sys.argv[1:]
positions = self_play_positions(oxo_onnx.Model(dirs[0]), 1500, np.random.default_rng(7))
planes = np.stack([g.encode() for g in positions]).astype(np.float32)
legal = np.zeros((len(positions), 121), bool)
for i, game in enumerate(positions):
    legal[i, game.legal_moves()] = True
outputs = []
for d in dirs:
    logits, _, score = ort.InferenceSession(f'{d}/model.onnx').run(None, {'planes': planes})
    logits = np.where(legal, logits, -1e9)
    p = np.exp(logits - logits.max(1, keepdims=True))
    outputs.append((p / p.sum(1, keepdims=True), score[:, 0]))
for i in range(len(dirs)):
    for j in range(i + 1, len(dirs)):
        (p, s), (q, t) = outputs[i], outputs[j]
        kl = np.mean(np.sum(p * (np.log(p + 1e-12) - np.log(q + 1e-12)), 1))
        top = np.mean(p.argmax(1) == q.argmax(1))
        rms = np.sqrt(np.mean((s - t) ** 2))
        print(f'{dirs[i]} | {dirs[j]}: KL {kl:.3f}, top move agrees {top:.3f}, '
              f'score RMS difference {rms:.4f} (x 50 points)')
