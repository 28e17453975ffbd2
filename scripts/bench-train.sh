#!/usr/bin/env bash
# Training speed of oxo (burn) against PyTorch on the same nets, in one run: for each shipped
# model, `oxo bench train` (1 and 2 threads, with onnxruntime's one-thread inference rate for
# scale) then scripts/bench_torch_train.py on the same architecture, optimiser and batch,
# pinned to the same cores, interleaved for ROUNDS rounds.
#
#     scripts/bench-train.sh [OXO] [ROUNDS] [VARIANTS...]
#
# OXO: the oxo binary (default target/release/oxo); ROUNDS: default 2; VARIANTS: default
# ultimate extreme. Needs `pip install torch`. Prints each record as JSON, one a line.
set -euo pipefail
cd "$(dirname "$0")/.."
oxo=${1:-target/release/oxo}
rounds=${2:-2}
shift 2 || true
variants=${*:-ultimate extreme}
echo "{\"commit\": \"$(git rev-parse --short HEAD)\", \"date\": \"$(date -u +%FT%TZ)\", \"cpu\": \"$(lscpu | sed -n 's/^Model name: *//p')\"}"
for round in $(seq "$rounds"); do
  for variant in $variants; do
    taskset -c 0,1 "$oxo" bench train --variant "$variant" --model "models/$variant/model.bpk" \
      --threads 1,2 --seconds 4 --json
    for threads in 1 2; do
      taskset -c "0-$((threads - 1))" python3 scripts/bench_torch_train.py \
        "models/$variant/model.json" --threads "$threads" --seconds 4
    done
  done
done
