#!/bin/bash
# adjacency, 2026-11-27: a fresh run whose cell head learns the points target
# (train.cell_target = "points": for each cell, the margin the rest of the game makes there,
# from the mover's view, over 16, clipped to [-1, 1]), otherwise configs/adjacency.toml, on
# one core (workers = 1) as the shipped model's run was; config.toml and run.json here (the
# run was started from a build of the working tree that became commit 71ddbc3, so run.json
# names its parent 452e6e4). Then fixed-budget screens of its best net (generation 108),
# at 1,000 PUCT simulations a move with the shipped model's play value, seed S on one core:
#   against alphabeta:depth=3, seeds 1 and 2, 20 paired games each (the shipped model went
#   35-1-4 on these openings, lab/strength/adjacency-2026-11-27b-sims1000-value-screens/);
#   against the shipped model at the same search, seeds 1 to 3, 20 paired games each.
# Run from the repository root with OXO a release build and ORT_DYLIB_PATH set:
#   OXO=target/release/oxo lab/strength/adjacency-2026-11-27h-points-target-run/run.sh RUN OUTDIR
set -eu
run=$1; out=$2; mkdir -p "$out"
here=lab/strength/adjacency-2026-11-27h-points-target-run
taskset -c 1 "$OXO" train --variant adjacency --config "$here/config.toml" --run "$run" --minutes 105
new=$run/models/best.bpk
p=search=puct,sims=1000,score=1,rollouts=16,mix=0.75
for seed in 1 2; do
  "$OXO" arena --variant adjacency --agents "alphabeta:depth=3,net:path=$new,$p" --games 20 \
    --threads 1 --seed "$seed" --out "$out/new-vs-ab3-seed$seed-20"
done
for seed in 1 2 3; do
  "$OXO" arena --variant adjacency \
    --agents "net:path=models/adjacency/model.bpk,$p,net:path=$new,$p" --games 20 \
    --threads 1 --seed "$seed" --out "$out/new-vs-shipped-seed$seed-20"
done
scripts/arena_tally.py --summary "$out/summary.json" \
  points-vs-alphabeta-depth3 "$out/new-vs-ab3-seed*-20.json" \
  points-vs-shipped "$out/new-vs-shipped-seed*-20.json"
