#!/usr/bin/env bash
# Does the trainer with cache-sized chunks of convolution rows, rebuilt in the backward pass,
# activations channels last and a vectorised AdamW (commit 7fff62a) learn as much per sample
# as the trainer of trainer-learning-2026-12-05 (commit 572bca8)? The same 60-generation run
# as there (its config.toml, --threads 4: the trainer on one thread, the same seed, games and
# steps a generation), made alone; then its generation-60 net plays that run's in 200 paired
# games from 2-ply random openings at the play setting (PUCT, 200 simulations; two seeds,
# one core each).
# Usage (from the repository root): run.sh OXO RUNS_DIR EARLIER_RUN
#   EARLIER_RUN: the run directory of trainer-learning-2026-12-05's "now" run (572bca8).
set -euo pipefail
oxo=$1
runs=$2
earlier=$3
here=lab/strength/trainer-learning-2026-12-05b
"$oxo" train --variant ultimate --config lab/strength/trainer-learning-2026-12-05/config.toml \
  --run "$runs/chunks" --threads 4 > "$runs/chunks.log" 2>&1
net() { echo "net:path=$1/models/gen-00060.bpk,search=puct,sims=200"; }
for seed in 1 2; do
  taskset -c $((seed - 1)) "$oxo" arena --variant ultimate --threads 1 --games 100 --seed $seed \
    --agents "$(net "$runs/chunks"),$(net "$earlier")" --out "$here/chunks-vs-572bca8-gen60-seed$seed" &
done
wait
