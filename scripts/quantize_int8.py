#!/usr/bin/env python3
"""Static int8 quantization (QDQ, per-channel weights) of a model exported by `oxo export`,
calibrated on positions from the model's own play, and how far its outputs move.

    python3 scripts/quantize_int8.py DIR OUT.onnx [--positions 2000] [--seed 1]

DIR holds `model.onnx` and `model.json`. The positions come from games the fp32 model plays
against itself, each move drawn from its policy (scripts/oxo_onnx.py's port of the rules and
the encoder): the positions its search meets. Half calibrate onnxruntime's static
quantizer; the other half measure the int8 model against the fp32 one (largest and mean
difference of the legal-move policy, the value and the score). Prints one JSON line.
`oxo` plays the result with `net:path=DIR/model.bpk,onnx=OUT.onnx`. With `--record`, OUT must
lie in DIR, and DIR/model.json's `play` then records it (`onnx`, its file name, and
`onnx_crc32`), so that oxo plays the model with it on onnxruntime whenever no `onnx=` or
`engine=` says otherwise (`oxo play`, `oxo gtp`, `net:ms=500`).

Dependencies: numpy, onnx and onnxruntime.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import zlib

import numpy as np
from onnxruntime.quantization import (CalibrationDataReader, CalibrationMethod, QuantFormat,
                                      QuantType, quantize_static)
from onnxruntime.quantization.shape_inference import quant_pre_process

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oxo_onnx  # noqa: E402  (the rules port and the encoder, beside this script)


def self_play_positions(model: oxo_onnx.Model, count: int, rng: np.random.Generator):
    """`count` positions (games, not over) of the model playing itself, 64 games at a time."""
    positions = []
    games = [model.cls() for _ in range(64)]
    while len(positions) < count:
        live = [g for g in games if g.legal_moves()]
        answers = model.evaluate(live)
        for game, answer in zip(live, answers):
            positions.append(game.clone() if hasattr(game, "clone") else _copy(game))
            moves = list(answer["policy"].items())
            p = np.array([q for _, q in moves], dtype=np.float64)
            move = moves[rng.choice(len(moves), p=p / p.sum())][0]
            game.play(model.cls.parse_action(move))
        games = [g if g.legal_moves() else model.cls() for g in games]
    return positions[:count]


def _copy(game):
    import copy
    return copy.deepcopy(game)


class Reader(CalibrationDataReader):
    """Feeds the calibration planes in batches of 64."""

    def __init__(self, name: str, planes: np.ndarray):
        self.batches = iter([{name: planes[i:i + 64]} for i in range(0, len(planes), 64)])

    def get_next(self):
        return next(self.batches, None)


def run(path: str, planes: np.ndarray) -> dict[str, np.ndarray]:
    import onnxruntime
    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3
    session = onnxruntime.InferenceSession(path, options, providers=["CPUExecutionProvider"])
    names = [o.name for o in session.get_outputs()]
    return dict(zip(names, session.run(names, {session.get_inputs()[0].name: planes})))


def softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def compare(model, games, fp32: dict, int8: dict) -> dict:
    policy, value, score = [], [], []
    for i, game in enumerate(games):
        legal = game.legal_moves()
        policy.append(np.abs(softmax(fp32["policy_logits"][i][legal])
                             - softmax(int8["policy_logits"][i][legal])).max())
        w32, w8 = softmax(fp32["wdl_logits"][i]), softmax(int8["wdl_logits"][i])
        value.append(abs((w32[0] - w32[2]) - (w8[0] - w8[2])))
        if "score" in fp32:
            score.append(abs(fp32["score"][i][0] - int8["score"][i][0]))
    out = {"policy_max": float(np.max(policy)), "policy_mean": float(np.mean(policy)),
           "value_max": float(np.max(value)), "value_mean": float(np.mean(value))}
    if score:
        out.update(score_max=float(np.max(score)), score_mean=float(np.mean(score)))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir")
    parser.add_argument("out")
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--record", action="store_true",
                        help="record OUT (a file in DIR) in DIR/model.json as the graph to play")
    args = parser.parse_args()
    if args.record and os.path.dirname(os.path.abspath(args.out)) != os.path.abspath(args.dir):
        sys.exit(f"--record: {args.out} must lie in {args.dir}, beside model.json")
    model = oxo_onnx.Model(args.dir)
    rng = np.random.default_rng(args.seed)
    games = self_play_positions(model, args.positions, rng)
    planes = np.stack([g.encode() for g in games]).astype(np.float32)
    calibration, check = planes[0::2], planes[1::2]
    source = os.path.join(args.dir, "model.onnx")
    with tempfile.TemporaryDirectory() as tmp:
        prepared = os.path.join(tmp, "prepared.onnx")
        quant_pre_process(source, prepared)
        quantize_static(prepared, args.out, Reader(model.input_name, calibration),
                        quant_format=QuantFormat.QDQ, per_channel=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                        calibrate_method=CalibrationMethod.MinMax,
                        # onnxruntime 1.32 fails adjusting per-channel weight scales for
                        # int32 biases (an array compared as a scalar); the adjustment only
                        # matters for tiny weight scales.
                        extra_options={"QDQDisableWeightAdjustForInt32Bias": True})
    report = compare(model, games[1::2], run(source, check), run(args.out, check))
    report.update(model=args.dir, out=args.out, calibration_positions=len(calibration),
                  check_positions=len(check))
    print(json.dumps(report))
    if args.record:
        record_graph(args.dir, args.out)
    return 0


def record_graph(directory: str, graph: str) -> None:
    """Names `graph` (a file in `directory`) and its CRC-32 in `directory`/model.json's
    `play`, replacing the file atomically."""
    path = os.path.join(directory, "model.json")
    with open(path) as f:
        description = json.load(f)
    with open(graph, "rb") as f:
        crc = zlib.crc32(f.read())
    description.setdefault("play", {}).update(
        onnx=os.path.basename(graph), onnx_crc32=f"{crc:08x}",
        onnx_meaning="the ONNX graph of this net (a static int8 quantization by "
                     "scripts/quantize_int8.py) that oxo's onnxruntime engine plays it with, "
                     "and the CRC-32 of its bytes; model.onnx stays the fp32 network that "
                     "other front ends read")
    with tempfile.NamedTemporaryFile("w", dir=directory, delete=False) as f:
        json.dump(description, f, indent=2, ensure_ascii=False)
        f.write("\n")
    os.replace(f.name, path)


if __name__ == "__main__":
    sys.exit(main())
