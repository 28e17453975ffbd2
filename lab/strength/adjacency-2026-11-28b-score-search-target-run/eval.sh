#!/bin/bash
# The candidate (MODEL, the run's last generation) on this project's 2-core workstation, one
# single-threaded arena per core, both cores busy:
# core 0: the default setting against alphabeta:ms=100 on the first 40 openings of seed 1
#   (the shipped model: 32-3-5, 83.8%, in
#   ../adjacency-2026-11-27-default-playouts075-vs-alphabeta-ms100-60games.json);
# core 1: 1,000 PUCT simulations a move against alphabeta:depth=3, seeds 1 and 2, 20 games each
#   (the shipped model: 35-1-4, 88.8%, in ../adjacency-2026-11-27b-sims1000-value-screens/).
# From the repository root, OXO a release build, ORT_DYLIB_PATH set:
#   OXO=target/release/oxo MODEL=... lab/strength/adjacency-2026-11-28b-score-search-target-run/eval.sh
set -eu
value=score=1,rollouts=16,mix=0.75
out=$(dirname "$0")
taskset -c 0 "$OXO" arena --variant adjacency \
  --agents "alphabeta:ms=100,net:path=$MODEL,search=puct,ms=400,$value" \
  --games 40 --threads 1 --seed 1 --out "$out/cand-ab100-40games" &
(for seed in 1 2; do
  taskset -c 1 "$OXO" arena --variant adjacency \
    --agents "alphabeta:depth=3,net:path=$MODEL,search=puct,sims=1000,$value" \
    --games 20 --threads 1 --seed "$seed" --out "$out/sims1000-depth3-seed$seed-20"
done) &
wait
# Tally: scripts/arena_tally.py --agent 1 --summary summary.json (the candidate is agent 1).
# Then, with core 1 free, head to head against the shipped model at the default setting, 20
# paired games:
#   taskset -c 1 "$OXO" arena --variant adjacency --agents \
#     "net:path=models/adjacency/model.bpk,search=puct,ms=400,$value,net:path=$MODEL,search=puct,ms=400,$value" \
#     --games 20 --threads 1 --seed 1 --out "$out/head-20games"
