#!/usr/bin/env python3
"""Positions per second of an exported model in Python onnxruntime: the yardstick for oxo's
own engines (`oxo bench nn`), on the same input as oxo's bench (planes of 0/1, 30% ones).

    python3 scripts/bench_onnxruntime.py MODEL.onnx [--batch 64] [--seconds 2] [--threads 1]
        [--provider cpu|cuda]

Prints one JSON line: {"model", "batch", "threads", "provider", "positions_per_sec",
"onnxruntime"}. `--provider cuda` runs onnxruntime's CUDA execution provider
(`onnxruntime-gpu`), the planes copied from the host each call as search would.
Dependencies: numpy and onnxruntime (or onnxruntime-gpu).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import onnxruntime as ort


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--provider", choices=["cpu", "cuda"], default="cpu")
    args = parser.parse_args()
    providers = {"cpu": ["CPUExecutionProvider"],
                 "cuda": ["CUDAExecutionProvider", "CPUExecutionProvider"]}[args.provider]

    options = ort.SessionOptions()
    options.intra_op_num_threads = args.threads
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    session = ort.InferenceSession(args.model, options, providers=providers)
    if args.provider == "cuda" and "CUDAExecutionProvider" not in session.get_providers():
        raise SystemExit("onnxruntime's CUDA execution provider did not load")
    spec = session.get_inputs()[0]
    shape = [args.batch] + [int(d) for d in spec.shape[1:]]
    rng = np.random.default_rng(3)
    planes = (rng.random(shape) < 0.3).astype(np.float32)
    feed = {spec.name: planes}
    session.run(None, feed)
    positions, start = 0, time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        session.run(None, feed)
        positions += args.batch
    rate = positions / (time.perf_counter() - start)
    print(json.dumps({
        "model": args.model, "batch": args.batch, "threads": args.threads,
        "provider": args.provider,
        "positions_per_sec": rate, "onnxruntime": ort.__version__,
    }))


if __name__ == "__main__":
    main()
