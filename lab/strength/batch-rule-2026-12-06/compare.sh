#!/usr/bin/env bash
# The same generations of run.sh's two runs against each other, paired games from 2-ply
# random openings at the gate's setting (gumbel, 16 simulations), two matches of 100 games at
# once (seeds 1 and 2, one a core).
# Usage (from the repository root): compare.sh OXO RUNS_DIR GENERATION
set -euo pipefail
oxo=$1 runs=$2 gen=$3
here=lab/strength/batch-rule-2026-12-06
net() { echo "net:path=$runs/$1/models/gen-$(printf %05d "$gen").bpk,search=gumbel,sims=16"; }
for seed in 1 2; do
  taskset -c $((seed - 1)) "$oxo" arena --variant ultimate --threads 1 --games 100 --seed $seed \
    --agents "$(net batch-256),$(net batch-128)" --out "$here/gen$gen-seed$seed" &
done
wait
