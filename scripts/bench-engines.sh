#!/usr/bin/env bash
# oxo's inference engines against Python onnxruntime on the same model.onnx, pinned to one
# core, interleaved: `oxo bench nn` (onnxruntime and burn in one run) then
# scripts/bench_onnxruntime.py on the model.onnx that `oxo export` writes for the same model.
#
#     scripts/bench-engines.sh [OXO] [CORE] [ROUNDS]
#
# OXO: the oxo binary (default target/release/oxo); CORE: the core to pin to (default 0);
# ROUNDS: how many times each pair runs (default 2). Prints one line per measurement.
set -euo pipefail
cd "$(dirname "$0")/.."
oxo=${1:-target/release/oxo}
core=${2:-0}
rounds=${3:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for variant in ultimate extreme; do
  "$oxo" export --model "models/$variant/model.bpk" --out "$tmp/$variant" >/dev/null
  for round in $(seq "$rounds"); do
    taskset -c "$core" "$oxo" bench nn --variant "$variant" --model "models/$variant/model.bpk" \
      --batches 64 --seconds 3 --json |
      python3 -c 'import json,sys; r=json.load(sys.stdin)
for x in r["rates"]:
    if x["what"]=="eval": print(f"{r[\"variant\"]} round '"$round"': oxo {x[\"engine\"]:<12} batch {x[\"batch\"]}: {x[\"positions_per_sec\"]:8.0f} positions/s")'
    taskset -c "$core" python3 scripts/bench_onnxruntime.py "$tmp/$variant/model.onnx" --batch 64 --seconds 3 |
      python3 -c 'import json,sys; r=json.load(sys.stdin); print(f"'"$variant"' round '"$round"': Python onnxruntime {r[\"onnxruntime\"]} batch {r[\"batch\"]}: {r[\"positions_per_sec\"]:8.0f} positions/s")'
  done
done
