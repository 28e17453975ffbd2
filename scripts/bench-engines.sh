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
# One line per rate of a JSON record: oxo's (`oxo bench nn --json`) or Python's.
show() {
  python3 -c '
import json, sys
variant, round_ = sys.argv[1], sys.argv[2]
r = json.load(sys.stdin)
if "rates" in r:
    rows = [("oxo " + x["engine"], x["batch"], x["positions_per_sec"]) for x in r["rates"]]
else:
    rows = [("Python onnxruntime " + r["onnxruntime"], r["batch"], r["positions_per_sec"])]
for name, batch, rate in rows:
    print(f"{variant} round {round_}: {name:<26} batch {batch}: {rate:8.0f} positions/s")
' "$@"
}
for variant in ultimate extreme; do
  "$oxo" export --model "models/$variant/model.bpk" --out "$tmp/$variant" >/dev/null
  for round in $(seq "$rounds"); do
    taskset -c "$core" "$oxo" bench nn --variant "$variant" --model "models/$variant/model.bpk" \
      --batches 64 --seconds 3 --json | show "$variant" "$round"
    taskset -c "$core" python3 scripts/bench_onnxruntime.py "$tmp/$variant/model.onnx" \
      --batch 64 --seconds 3 | show "$variant" "$round"
  done
done
