#!/usr/bin/env bash
# The same run as run.sh's one-replica run (config.toml, --threads 4: the trainer on one
# thread), with the trainer whose convolutions are one product over the batch (commit
# 2cf4741), alone on this 2-core machine; then its generation-60 net against the older
# one-replica run's in 200 paired games at the play setting (two seeds, one core each).
# Usage (from the repository root): new-trainer.sh OXO RUNS_DIR
set -euo pipefail
oxo=$1
runs=$2
here=lab/strength/replicas-learning-2026-12-03
"$oxo" train --variant ultimate --config "$here/config.toml" --run "$runs/new-trainer" \
  --threads 4 > "$runs/new-trainer.log" 2>&1
net() { echo "net:path=$runs/$1/models/gen-00060.bpk,search=puct,sims=200"; }
for seed in 1 2; do
  taskset -c $((seed - 1)) "$oxo" arena --variant ultimate --threads 1 --games 100 --seed $seed \
    --agents "$(net new-trainer),$(net one-replica)" \
    --out "$here/new-trainer-vs-one-replica-gen60-seed$seed" &
done
wait
