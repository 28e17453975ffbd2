#!/bin/bash
# adjacency, 2026-11-27: two changes to the shipped model's search value screened at a fixed
# budget (1,000 PUCT simulations a move against alphabeta at depth 3, so that the result does
# not depend on the machine's load: these ran beside a training run on the same 2 cores),
# 20 paired games on each of two seeds, on the same openings as the recorded value:
#   recorded: score=1,rollouts=16,mix=0.75 (model.json's value)
#   sharp5:   the same with the score margin m entering as tanh(5 m) / tanh(5) (`net:sharp=5`;
#             the change was not merged, as it scored no better, and is described in
#             docs/experiments.md, "xando and adjacency", item "Two more changes to the
#             search value")
#   cpuct06:  the same with PUCT's c_puct 0.6 instead of 1.25
#   sims3000: the recorded value with 3,000 simulations a move instead of 1,000 (added
#             later the same day, sims3000-seed*-20.json, the two cores to itself)
# The result files name the net by a copy of models/adjacency/model.bpk,
# /work/exp/s17/adj-shipped.bpk. Run from the repository root with OXO a release build (for
# sharp5, one with that unmerged change, commit 3599aa1) and ORT_DYLIB_PATH set to
# onnxruntime's library:
#   OXO=target/release/oxo lab/strength/adjacency-2026-11-27b-sims1000-value-screens/run.sh OUTDIR
set -eu
out=$1; mkdir -p "$out"
net=net:path=models/adjacency/model.bpk,search=puct,sims=1000,score=1,rollouts=16,mix=0.75
for seed in 1 2; do
  for variant in "base:" "sharp5:,sharp=5" "cpuct06:,c_puct=0.6"; do
    name=${variant%%:*}; extra=${variant#*:}
    "$OXO" arena --variant adjacency --agents "alphabeta:depth=3,$net$extra" --games 20 \
      --threads 1 --seed "$seed" --out "$out/$name-seed$seed-20"
  done
  "$OXO" arena --variant adjacency --agents "alphabeta:depth=3,${net/sims=1000/sims=3000}" \
    --games 20 --threads 1 --seed "$seed" --out "$out/sims3000-seed$seed-20"
done
scripts/arena_tally.py --summary "$out/summary.json" recorded "$out/base-seed*-20.json" \
  sharp=5 "$out/sharp5-seed*-20.json" c_puct=0.6 "$out/cpuct06-seed*-20.json" \
  sims=3000 "$out/sims3000-seed*-20.json"
