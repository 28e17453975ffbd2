#!/usr/bin/env bash
# Does today's trainer (products by gemm into owned buffers, one-pass batch norm, fused AdamW,
# tiled transposes) learn as much per sample as the trainer before it (commit 6a3e2db)? The
# same run twice, at once on this 2-core machine: config.toml (configs/ultimate.toml's net
# and search, 60 generations, no ratings), --threads 4 (the trainer on one thread), the same
# seed, games and steps a generation; only the trainer's code differs. Then the two
# generation-60 nets play 200 paired games from 2-ply random openings at the play setting
# (PUCT, 200 simulations; two seeds, one core each).
# Usage (from the repository root): run.sh OXO_BEFORE OXO_NOW RUNS_DIR
set -euo pipefail
before=$1
now=$2
runs=$3
here=lab/strength/trainer-learning-2026-12-05
"$before" train --variant ultimate --config "$here/config.toml" --run "$runs/before" \
  --threads 4 > "$runs/before.log" 2>&1 &
"$now" train --variant ultimate --config "$here/config.toml" --run "$runs/now" \
  --threads 4 > "$runs/now.log" 2>&1 &
wait
net() { echo "net:path=$runs/$1/models/gen-00060.bpk,search=puct,sims=200"; }
for seed in 1 2; do
  taskset -c $((seed - 1)) "$now" arena --variant ultimate --threads 1 --games 100 --seed $seed \
    --agents "$(net now),$(net before)" --out "$here/now-vs-before-gen60-seed$seed" &
done
wait
