#!/usr/bin/env bash
# The same generations of the two runs of run.sh against each other, paired games from 2-ply
# random openings on one core: generations 20, 40 and 60 at the gate's setting (gumbel, 16
# simulations, 200 games), generation 60 at a play setting (puct, 200 simulations, 100 games).
# Usage (from the repository root): compare.sh OXO RUNS_DIR
set -euo pipefail
oxo=$1
runs=$2
here=lab/strength/replicas-learning-2026-12-03
net() { echo "net:path=$runs/$1/models/gen-$(printf %05d "$2").bpk,$3"; }
for gen in 20 40 60; do
  taskset -c 1 "$oxo" arena --variant ultimate --threads 1 --games 200 \
    --agents "$(net two-replicas $gen search=gumbel,sims=16),$(net one-replica $gen search=gumbel,sims=16)" \
    --out "$here/gate-setting-gen$gen-200games"
done
taskset -c 1 "$oxo" arena --variant ultimate --threads 1 --games 100 \
  --agents "$(net two-replicas 60 search=puct,sims=200),$(net one-replica 60 search=puct,sims=200)" \
  --out "$here/play-setting-gen60-100games"
# 100 more games of generation 60 at the play setting, from other openings.
taskset -c 1 "$oxo" arena --variant ultimate --threads 1 --games 100 --seed 2 \
  --agents "$(net two-replicas 60 search=puct,sims=200),$(net one-replica 60 search=puct,sims=200)" \
  --out "$here/play-setting-gen60-100games-seed2"
